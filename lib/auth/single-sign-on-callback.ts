// The provider's redirect back to the dashboard, handed to better-auth, whose answer is a
// redirect: to the return path on success, or to an error address with better-auth's `error`
// code. A refusal is turned into the dashboard's own page (/sign-in/refused) with one of its
// own reasons, and the refusals that only a real sign-in at the provider can cause are
// audited (a disabled account and a second identity already are, by the gate in
// single-sign-on.ts, which knows the id).
// Codes anyone could provoke by opening the callback address by hand (no state, a wrong
// code) are not audited: strangers could fill the trail.
import 'server-only';
import { recordAudit } from '@/lib/audit/audit';
import { getAuth } from './auth';
import { ACCOUNT_DISABLED_ERROR, OTHER_IDENTITY_ERROR } from './single-sign-on';

export type SingleSignOnRefusal = 'unknown' | 'unverified' | 'disabled' | 'other_identity' | 'failed';

export const SINGLE_SIGN_ON_REFUSED_PATH = '/sign-in/refused';

/** The dashboard's reason for one of better-auth's callback error codes. */
export function refusalOf(error: string): SingleSignOnRefusal {
  switch (error) {
    // disableSignUp: the provider's (verified) address is no staff member's.
    case 'signup_disabled':
      return 'unknown';
    // The provider gave no verified address (single-sign-on.ts drops an unverified one), or an
    // address it has not verified matched a staff member's.
    case 'email_not_found':
    case 'account_not_linked':
      return 'unverified';
    case ACCOUNT_DISABLED_ERROR:
      return 'disabled';
    // The account is linked to another identity at the provider (single-sign-on.ts pins it).
    case OTHER_IDENTITY_ERROR:
      return 'other_identity';
    default:
      return 'failed';
  }
}

export async function handleSingleSignOnCallback(request: Request): Promise<Response> {
  const auth = await getAuth();
  const answer = await auth.handler(request);
  const location = answer.headers.get('location');
  if (!location) return answer;
  const error = new URL(location, request.url).searchParams.get('error');
  if (error === null) return answer;

  const reason = refusalOf(error);
  if (reason === 'unknown' || reason === 'unverified') {
    await recordAudit({ actorId: null, action: 'sso.refused', details: { reason } });
  }
  // Keep the cookies better-auth set or cleared (the finished sign-in's state), change where to.
  const headers = new Headers(answer.headers);
  headers.set('location', `${SINGLE_SIGN_ON_REFUSED_PATH}?reason=${reason}`);
  headers.set('cache-control', 'no-store');
  return new Response(null, { status: 303, headers });
}
