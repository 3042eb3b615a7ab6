// Changing one's own password. The current password is required and checked by better-auth's
// changePassword; wrong guesses count in the sign-in throttle (lib/auth/throttle.ts) for the
// account's e-mail and the client's network, so a borrowed, unlocked browser gives no more
// guesses at the password than the sign-in page does. The new password must pass the password
// rules (password-policy.ts) before any guess is spent.
import 'server-only';
import { APIError } from 'better-auth/api';
import { recordAudit } from '@/lib/audit/audit';
import type { Auth } from '@/lib/auth/auth';
import { passwordProblem } from '@/lib/auth/password-policy';
import { attemptSignIn, type ThrottleScope } from '@/lib/auth/throttle';
import type { Db } from '@/lib/db';
import { endOtherSessions } from './own-sessions';

export type PasswordChangeRequest = {
  /** The signed-in person: their id, e-mail (the throttle's key) and this browser's session. */
  staff: { id: string; email: string; sessionId: string };
  currentPassword: string;
  newPassword: string;
  /** Also end every other session of the account (on by default in the form). */
  endOthers: boolean;
  /** The request's headers: better-auth finds the session in its cookie. */
  headers: Headers;
  /** The client's address, for the throttle. */
  ip: string | null;
};

export type PasswordChangeOutcome =
  | { outcome: 'changed'; otherSessionsEnded: number }
  | { outcome: 'weak-password'; message: string }
  | { outcome: 'wrong-current' }
  | { outcome: 'throttled'; scope: ThrottleScope; retryAfterSeconds: number }
  | { outcome: 'no-password' };

const errorCode = (error: unknown) => (error instanceof APIError ? (error.body as { code?: string } | undefined)?.code : undefined);

class NoPasswordError extends Error {}

export async function changeOwnPassword(
  auth: Auth,
  request: PasswordChangeRequest,
  { db }: { db?: Db } = {},
): Promise<PasswordChangeOutcome> {
  const problem = passwordProblem(request.newPassword);
  if (problem) return { outcome: 'weak-password', message: problem };

  let attempt: Awaited<ReturnType<typeof attemptSignIn<true>>>;
  try {
    attempt = await attemptSignIn(
      request.staff.email,
      request.ip,
      async () => {
        try {
          await auth.api.changePassword({
            body: { currentPassword: request.currentPassword, newPassword: request.newPassword, revokeOtherSessions: false },
            headers: request.headers,
          });
          return true as const;
        } catch (error) {
          const code = errorCode(error);
          if (code === 'INVALID_PASSWORD') return null;
          // An account that signs in through single sign-on only: no password was judged.
          if (code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') throw new NoPasswordError();
          throw error;
        }
      },
      { db },
    );
  } catch (error) {
    if (error instanceof NoPasswordError) return { outcome: 'no-password' };
    throw error;
  }
  if (attempt.outcome === 'throttled') return attempt;
  if (attempt.outcome === 'failed') return { outcome: 'wrong-current' };

  const actor = request.staff.id;
  await recordAudit({ actorId: actor, action: 'password.changed', target: { type: 'staff', id: actor } }, db);
  const otherSessionsEnded = request.endOthers ? await endOtherSessions(actor, request.staff.sessionId, { db }) : 0;
  return { outcome: 'changed', otherSessionsEnded };
}
