// The second step of a password sign-in for an account with a second factor: a code from the
// authenticator app or one of the backup codes. The pending sign-in is better-auth's: a signed
// cookie naming a verification row, which any instance can read. Its limits apply here (5 wrong
// codes per sign-in, then the password again; 10 in a row lock the account's second factor for
// a while), so guessing is never unlimited. Codes for one account are judged one at a time
// (check-lease.ts), so simultaneous guesses across several pending sign-ins cannot outrun the
// lock. Every wrong code, and the lock it may cause, is audited and logged under the account's
// id: never with the code, the cookie or the e-mail address.
import 'server-only';
import { eq } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { staffTwoFactors } from '@/lib/db/schema';
import { logger } from '@/lib/platform/log';
import type { Auth } from '../auth';
import { apiErrorCode } from './api-errors';
import { beginSecondFactorCheck } from './check-lease';
import { type PendingSignIn, pendingSignIn } from './pending-sign-in';
import { LOCKOUT_MINUTES } from './plugin';

export type ChallengeMethod = 'totp' | 'backup';

export type ChallengeOutcome =
  | { outcome: 'signed-in'; userId: string }
  /** Wrong code: may try again (within the limits). */
  | { outcome: 'wrong-code' }
  /** No pending sign-in, or it ran out (time or wrong codes): the password must be given again. */
  | { outcome: 'start-again'; reason: 'expired' | 'too-many' }
  /** Too many wrong codes in a row for this account: nobody can finish its sign-in for a while. */
  | { outcome: 'locked' }
  /** Another code for the same account was being checked at that moment: this one was not judged. */
  | { outcome: 'busy' };

const log = logger.child({ area: 'two-factor' });

export async function answerChallenge(
  auth: Auth,
  requestHeaders: Headers,
  method: ChallengeMethod,
  code: string,
): Promise<ChallengeOutcome> {
  const pending = await pendingSignIn(auth, requestHeaders);
  if (!pending) return { outcome: 'start-again', reason: 'expired' };
  const endCheck = await beginSecondFactorCheck(pending.userId);
  if (!endCheck) {
    log.warn(
      { userId: pending.userId, method },
      'A second-factor code was not judged: another code for the same account was being checked',
    );
    return { outcome: 'busy' };
  }
  try {
    return await judge(auth, pending, method, code);
  } finally {
    // Should giving it back fail, the lease lapses on its own within seconds.
    await endCheck().catch((error: unknown) =>
      log.error({ err: error, userId: pending.userId }, 'A second-factor check lease was not given back'),
    );
  }
}

async function judge(auth: Auth, pending: PendingSignIn, method: ChallengeMethod, code: string): Promise<ChallengeOutcome> {
  const { userId, headers } = pending;
  let signedInId: string;
  try {
    const result =
      method === 'totp'
        ? await auth.api.verifyTOTP({ body: { code }, headers })
        : await auth.api.verifyBackupCode({ body: { code }, headers });
    signedInId = result.user.id;
  } catch (error) {
    switch (apiErrorCode(error)) {
      case 'INVALID_CODE':
      case 'INVALID_BACKUP_CODE':
        await recordWrongCode(userId, method);
        return { outcome: 'wrong-code' };
      case 'INVALID_TWO_FACTOR_COOKIE':
      case 'TOTP_NOT_ENABLED':
      case 'BACKUP_CODES_NOT_ENABLED':
        return { outcome: 'start-again', reason: 'expired' };
      case 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE':
        log.info({ userId, method }, 'A sign-in was sent back to the password after too many wrong second-factor codes');
        return { outcome: 'start-again', reason: 'too-many' };
      case 'ACCOUNT_TEMPORARILY_LOCKED':
        log.warn({ userId, method }, "A second-factor code was refused unjudged: the account's second factor is locked");
        return { outcome: 'locked' };
      default:
        throw error;
    }
  }
  if (method === 'backup') {
    await recordAudit({ actorId: signedInId, action: 'two_factor.backup_code_used', target: { type: 'staff', id: signedInId } });
  }
  await recordAudit({ actorId: signedInId, action: 'sign_in.succeeded' });
  return { outcome: 'signed-in', userId: signedInId };
}

/**
 * A wrong code, with the account's run of wrong codes as better-auth has just counted it; and the
 * lock, when this code was the one that set it. Codes for one account are judged one at a time,
 * so exactly one wrong code finds the lock newly set.
 */
async function recordWrongCode(userId: string, method: ChallengeMethod): Promise<void> {
  const [state] = await (await getDb())
    .select({ inARow: staffTwoFactors.failedVerificationCount, lockedUntil: staffTwoFactors.lockedUntil })
    .from(staffTwoFactors)
    .where(eq(staffTwoFactors.userId, userId));
  const inARow = state?.inARow ?? 0;
  const target = { type: 'staff', id: userId } as const;
  await recordAudit({ actorId: userId, action: 'two_factor.failed', target, details: { method, inARow } });
  log.info({ userId, method, inARow }, 'A wrong second-factor code was entered');
  if (state?.lockedUntil && state.lockedUntil.getTime() > Date.now()) {
    await recordAudit({ actorId: userId, action: 'two_factor.locked', target, details: { minutes: LOCKOUT_MINUTES } });
    log.warn({ userId, minutes: LOCKOUT_MINUTES }, "The account's second factor is locked after too many wrong codes in a row");
  }
}
