// The second step of a password sign-in for an account with a second factor: a code from the
// authenticator app or one of the backup codes. The pending sign-in is better-auth's: a signed
// cookie naming a verification row, which any instance can read. Its limits apply here (5 wrong
// codes per sign-in, then the password again; 10 in a row lock the account's second factor for
// a while), so guessing is never unlimited.
import 'server-only';
import { recordAudit } from '@/lib/audit/audit';
import type { Auth } from '../auth';
import { apiErrorCode } from './api-errors';

export type ChallengeMethod = 'totp' | 'backup';

export type ChallengeOutcome =
  | { outcome: 'signed-in'; userId: string }
  /** Wrong code: may try again (within the limits). */
  | { outcome: 'wrong-code' }
  /** No pending sign-in, or it ran out (time or wrong codes): the password must be given again. */
  | { outcome: 'start-again'; reason: 'expired' | 'too-many' }
  /** Too many wrong codes in a row for this account: nobody can finish its sign-in for a while. */
  | { outcome: 'locked' };

export async function answerChallenge(
  auth: Auth,
  requestHeaders: Headers,
  method: ChallengeMethod,
  code: string,
): Promise<ChallengeOutcome> {
  let userId: string;
  try {
    const result =
      method === 'totp'
        ? await auth.api.verifyTOTP({ body: { code }, headers: requestHeaders })
        : await auth.api.verifyBackupCode({ body: { code }, headers: requestHeaders });
    userId = result.user.id;
  } catch (error) {
    switch (apiErrorCode(error)) {
      case 'INVALID_CODE':
      case 'INVALID_BACKUP_CODE':
        return { outcome: 'wrong-code' };
      case 'INVALID_TWO_FACTOR_COOKIE':
      case 'TOTP_NOT_ENABLED':
      case 'BACKUP_CODES_NOT_ENABLED':
        return { outcome: 'start-again', reason: 'expired' };
      case 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE':
        return { outcome: 'start-again', reason: 'too-many' };
      case 'ACCOUNT_TEMPORARILY_LOCKED':
        return { outcome: 'locked' };
      default:
        throw error;
    }
  }
  if (method === 'backup') {
    await recordAudit({ actorId: userId, action: 'two_factor.backup_code_used', target: { type: 'staff', id: userId } });
  }
  await recordAudit({ actorId: userId, action: 'sign_in.succeeded' });
  return { outcome: 'signed-in', userId };
}
