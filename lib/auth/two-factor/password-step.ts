// The password step of a sign-in for an account with a second factor: better-auth answers a
// correct password with `twoFactorRedirect` instead of a session (and sets its signed
// pending-sign-in cookie), and the person is sent on to the code prompt.
import 'server-only';
import { HOME_PATH } from '../landing';

export const SECOND_FACTOR_PENDING = 'second-factor-pending';

export function awaitsSecondFactor(result: unknown): boolean {
  return typeof result === 'object' && result !== null && (result as { twoFactorRedirect?: unknown }).twoFactorRedirect === true;
}

/** The code prompt, passing on where the person was going. */
export function secondFactorPromptPath(returnTo: string): string {
  return returnTo === HOME_PATH ? '/sign-in/two-factor' : `/sign-in/two-factor?next=${encodeURIComponent(returnTo)}`;
}
