// What a browser test needs done but is not its subject, done over plain HTTP: signing in, asking
// whether a session still opens a page, creating a request, counting register rows, reading a
// page's headings. Each posts the real server action
// exactly as React does (e2e/support/server-actions.ts) or reads the server-rendered page, so it
// proves the same server code a browser would reach, without a browser page to load and render.
import { randomUUID } from 'node:crypto';
import { type APIRequest, type APIRequestContext, expect, request as playwrightRequest } from '@playwright/test';
import { actionId, formActionCall, multipartActionCall, replayAction } from './server-actions';

const SIGNED_OUT = { cookies: [], origins: [] };
/** The session cookie's name, with the prefix it takes behind HTTPS. */
export const SESSION_COOKIE = /^(__Secure-)?vdesk\.session_token$/;

export type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

/**
 * A request context signed in as `who` on the server at `baseUrl` through the sign-in action (a new
 * session of its own). Hand `await api.storageState()` to a browser context to browse as them.
 */
export async function signInOverHttp(
  request: APIRequest,
  baseUrl: string,
  who: { email: string; password: string; userAgent?: string },
): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: baseUrl, storageState: SIGNED_OUT, userAgent: who.userAgent });
  const call = formActionCall(
    actionId('signInAction'),
    '/sign-in',
    { status: 'idle', email: '' },
    { email: who.email, password: who.password },
  );
  const response = await replayAction(api, baseUrl, call, { origin: new URL(baseUrl).origin });
  const { cookies } = await api.storageState();
  expect(
    cookies.some((cookie) => SESSION_COOKIE.test(cookie.name) && cookie.value !== ''),
    `signed in as ${who.email}: ${response.status()} ${(await response.text()).slice(0, 300)}`,
  ).toBe(true);
  return api;
}

/**
 * The same sign-in, kept as storage state for a browser context. `userAgent`: the browser's, so
 * the session is recorded as that browser's (the account page names it).
 */
export async function sessionOverHttp(
  baseUrl: string,
  who: { email: string; password: string; userAgent?: string },
): Promise<StorageState> {
  const api = await signInOverHttp(playwrightRequest, baseUrl, who);
  try {
    return await api.storageState();
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

/** The session cookie of a signed-in request context, as a `cookie` header. */
export async function cookieHeaderOf(api: APIRequestContext): Promise<string> {
  return (await api.storageState()).cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
}

/**
 * Creates a verification request as the signed-in `api` through the create action (what the
 * create form posts); its id and, when `shareableLink`, its link.
 */
export async function createOverHttp(
  api: APIRequestContext,
  baseUrl: string,
  { name, email = '', shareableLink = false }: { name: string; email?: string; shareableLink?: boolean },
): Promise<{ id: string; link: string | null }> {
  const call = formActionCall(
    actionId('createVerificationAction'),
    '/verifications/new',
    { status: 'idle', submissionKey: randomUUID() },
    {
      submissionKey: randomUUID(),
      name,
      email,
      purpose: 'ensuring_compliance',
      customPurpose: '',
      language: 'en',
      emailNotification: email ? 'on' : '',
      phone: '',
      ...(shareableLink ? { shareableLink: 'on' } : {}),
    },
  );
  const response = await replayAction(api, baseUrl, call, { origin: new URL(baseUrl).origin });
  const text = (await response.text()).replaceAll('\\"', '"');
  expect(text, `created ${name}: ${text.slice(0, 400)}`).toContain('Verification request created successfully.');
  const id = /"verificationId":"([0-9a-f-]{36})"/.exec(text)?.[1];
  expect(id, 'the created id in the answer').toBeTruthy();
  const link = /"link":"([^"]*\/sandbox\/verify\/[A-Za-z0-9_-]{43})"/.exec(text)?.[1] ?? null;
  if (shareableLink) expect(link, 'a shareable link in the answer').toBeTruthy();
  return { id: id!, link };
}

/** The visible text of an HTML fragment (tags dropped, the entities React writes decoded). */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&')
    .trim();
}

/** The texts of the level-1 headings in a server-rendered page (streamed parts included). */
export function headingsOf(html: string): string[] {
  return [...html.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((match) => textOf(match[1]!));
}

/** How many register rows the register page, searched for `name`, links under exactly that name. */
export async function registerRowsNamed(api: APIRequestContext, name: string): Promise<number> {
  const response = await api.get(`/?q=${encodeURIComponent(name)}`, { maxRedirects: 0 });
  expect(response.status(), 'the register page').toBe(200);
  const html = await response.text();
  expect(html).toContain('Recent requests');
  return [...html.matchAll(/<a\b[^>]*href="\/verifications\/[^"]+"[^>]*>([\s\S]*?)<\/a>/g)].filter((match) => textOf(match[1]!) === name)
    .length;
}

/**
 * The person's answer on the sandbox's page behind `link`, sent as that page's form sends it, by a
 * caller without a session (the link's token is the credential); it must be accepted.
 */
export async function answerAsPerson(
  request: APIRequest,
  baseUrl: string,
  link: string,
  answer:
    | { action: 'completeVerificationAction'; method: string; identifiedName: string }
    | { action: 'failVerificationAction'; reason: string },
): Promise<void> {
  const url = new URL(link, baseUrl);
  const token = /\/sandbox\/verify\/([A-Za-z0-9_-]{43})$/.exec(url.pathname)?.[1];
  expect(token, `a person's link: ${link}`).toBeTruthy();
  const { action, ...fields } = answer;
  const api = await request.newContext({ baseURL: url.origin, storageState: SIGNED_OUT });
  const parts = Object.entries({ token: token!, ...fields }).map(([name, value]) => ({ name, value }));
  const response = await replayAction(api, url.origin, multipartActionCall(actionId(action), url.pathname, ['$K1'], parts), {
    origin: url.origin,
  });
  // Accepted: back to the token's page, without a field's error code.
  const location = response.headers()['x-action-redirect'] ?? '';
  expect(location, `${action}: ${response.status()} ${(await response.text()).slice(0, 300)}`).toContain('/sandbox/verify/');
  expect(location).not.toContain('error=');
  await api.dispose();
}
