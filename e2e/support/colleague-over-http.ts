// A new colleague on the shared server without a browser: the administrator's stored session
// posts the Staff page's "Create account" action (inviteOverHttp), and the colleague posts the
// invitation page's "Set password and sign in" action, both exactly as React calls them
// (e2e/support/server-actions.ts). For specs whose subject is what a colleague does once they
// have an account; adding one through the pages is proven by e2e/staff-and-sign-in.spec.ts.
import { expect, request } from '@playwright/test';
import { inviteOverHttp } from './invitations';
import { SESSION_COOKIE, type StorageState } from './over-http';
import { actionId, formActionCall } from './server-actions';
import type { Role } from './staff';

export type NewColleague = { name: string; email: string; role: Role; password: string };

const NO_SESSION = { cookies: [], origins: [] };

/**
 * Creates the account as the administrator of `adminState` and accepts its invitation; returns
 * the colleague's session (signed in by the invitation) as storage state. `userAgent`: the
 * browser's, so the session is recorded as that browser's.
 */
export async function colleagueOverHttp(
  baseURL: string,
  adminState: string,
  { name, email, role, password }: NewColleague,
  userAgent?: string,
): Promise<StorageState> {
  const origin = new URL(baseURL).origin;
  const admin = await request.newContext({ baseURL, storageState: adminState });
  let token: string;
  try {
    const link = await inviteOverHttp(admin, baseURL, { name, email, role });
    token = new URL(link, baseURL).pathname.split('/').pop()!;
  } finally {
    await admin.dispose();
  }

  const colleague = await request.newContext({ baseURL, storageState: NO_SESSION, userAgent });
  try {
    const accept = formActionCall(
      actionId('acceptInvitationAction'),
      `/invitation/${token}`,
      { status: 'idle', values: {} },
      { token, password, confirmPassword: password },
    );
    const accepted = await colleague.post(accept.path, {
      headers: { ...accept.headers, origin },
      data: accept.body,
      maxRedirects: 0,
      failOnStatusCode: false,
    });
    const state = await colleague.storageState();
    const signedIn = state.cookies.some((cookie) => SESSION_COOKIE.test(cookie.name) && cookie.value !== '');
    expect(signedIn, `accepting the invitation of ${email} (${accepted.status()}): ${(await accepted.text()).slice(0, 300)}`).toBe(true);
    return state;
  } finally {
    await colleague.dispose();
  }
}
