// A real better-auth session for route-handler tests: signs a staff member in through the same
// auth instance the CLI uses and returns the session cookie as a Cookie header value.
import { expect } from 'vitest';
import { getCliAuth } from '@/lib/auth/auth';

export async function sessionCookie(email: string, password: string): Promise<string> {
  const auth = await getCliAuth();
  const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('vdesk.session_token='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}
