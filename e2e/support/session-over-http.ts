// Sessions without a browser: a sign-in posted over HTTP exactly as the sign-in form's action is
// called (e2e/support/server-actions.ts), handing its cookies to a browser context as storage
// state, and "is this session alive?" asked with one request instead of a page load. For tests
// whose subject is not the sign-in page: a browser page costs far more than the request.
import { type APIRequestContext, expect, request } from '@playwright/test';
import { formActionCall, listServerActions } from './server-actions';

export type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

const NO_SESSION = { cookies: [], origins: [] };
const SESSION_COOKIE = /^(__Secure-)?vdesk\.session_token$/;

let signInActionId: string | undefined;

/**
 * Signs in with a password as the sign-in form does and returns the session as storage state.
 * `userAgent`: the browser's, so the session is recorded as that browser's (the account page
 * names it). Fails the test if no session cookie came back.
 */
export async function signInOverHttp(
  baseURL: string,
  { email, password, userAgent }: { email: string; password: string; userAgent?: string },
): Promise<StorageState> {
  signInActionId ??= listServerActions().find((action) => action.name === 'signInAction')?.id;
  if (!signInActionId) throw new Error('No signInAction in .next/server/server-reference-manifest.json: is the build current?');
  const api = await request.newContext({ baseURL, storageState: NO_SESSION, userAgent });
  try {
    const call = formActionCall(signInActionId, '/sign-in', { status: 'idle', email: '' }, { email, password });
    const response = await api.post(call.path, {
      headers: { ...call.headers, origin: new URL(baseURL).origin },
      data: call.body,
      maxRedirects: 0,
      failOnStatusCode: false,
    });
    const state = await api.storageState();
    const signedIn = state.cookies.some((cookie) => SESSION_COOKIE.test(cookie.name) && cookie.value !== '');
    expect(signedIn, `sign-in of ${email} over HTTP (${response.status()}): ${(await response.text()).slice(0, 300)}`).toBe(true);
    return state;
  } finally {
    await api.dispose();
  }
}

/**
 * Does a page load with these cookies reach the dashboard (200), or is it sent to sign-in? One
 * request, no browser page: the server's own check of the session, as on every page.
 */
export async function opensDashboard(api: APIRequestContext, pathname = '/account'): Promise<boolean> {
  const response = await api.get(pathname, { maxRedirects: 0, failOnStatusCode: false });
  if (response.status() === 200) return true;
  expect(response.status(), `GET ${pathname}`).toBe(307);
  expect(new URL(response.headers().location ?? '', 'http://x').pathname, `GET ${pathname} redirects`).toBe('/sign-in');
  return false;
}
