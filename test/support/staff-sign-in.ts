// Test support only: a real better-auth sign-in from a named browser, with what a test needs to
// act as that browser afterwards (its request headers) and to recognise its session (the id).
import { expect } from 'vitest';
import { getCliAuth } from '@/lib/auth/auth';

export const USER_AGENTS = {
  chromeOnLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.85 Safari/537.36',
  firefoxOnWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariOnIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
} as const;

export type SignedInBrowser = { headers: Headers; sessionId: string };

export async function signInAs(email: string, password: string, userAgent: string = USER_AGENTS.chromeOnLinux): Promise<SignedInBrowser> {
  const auth = await getCliAuth();
  const response = await auth.api.signInEmail({
    body: { email, password },
    headers: new Headers({ 'user-agent': userAgent }),
    asResponse: true,
  });
  expect(response.status).toBe(200);
  const cookie = response.headers
    .getSetCookie()
    .find((line) => line.startsWith('vdesk.session_token='))
    ?.split(';')[0];
  if (!cookie) throw new Error('no session cookie');
  const headers = new Headers({ cookie, 'user-agent': userAgent });
  const session = await auth.api.getSession({ headers });
  if (!session) throw new Error('the new session does not validate');
  return { headers, sessionId: session.session.id };
}
