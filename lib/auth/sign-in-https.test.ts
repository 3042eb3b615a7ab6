// The session cookie behind https. A separate file because the auth instance reads APP_URL and
// SESSION_IDLE_HOURS once per process, and each test file runs in its own process.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { staffSessions } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { type Auth, getCliAuth } from './auth';
import { staffFromHeaders } from './session';

const PASSWORD = 'correct horse battery staple';

let auth: Auth;
let userId: string;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'https://desk.example.com';
  process.env.SESSION_IDLE_HOURS = '2';
  // Shared by getAuth() and getCliAuth(); see sign-in.test.ts.
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-https-sign-in-0123456789';
  resetEnv();
  auth = await getCliAuth();
  userId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
});

afterAll(async () => {
  await closeDatabases();
  delete process.env.APP_URL;
  delete process.env.SESSION_IDLE_HOURS;
  resetEnv();
});

it('sets a Secure, __Secure- prefixed, HttpOnly, SameSite=Lax session cookie behind https', async () => {
  const response = await auth.api.signInEmail({ body: { email: 'ada@example.com', password: PASSWORD }, asResponse: true });
  expect(response.status).toBe(200);

  const lines = response.headers.getSetCookie();
  const session = lines.find((line) => line.startsWith('__Secure-vdesk.session_token='));
  expect(session, lines.join('\n')).toBeDefined();
  const attributes = session!
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());
  expect(attributes).toContain('secure');
  expect(attributes).toContain('httponly');
  expect(attributes).toContain('samesite=lax');
  // No unprefixed, non-Secure copy of the session cookie.
  expect(lines.filter((line) => line.startsWith('vdesk.session_token='))).toEqual([]);
  for (const line of lines) expect(line.toLowerCase()).toContain('; secure');

  // The cookie works as sent back, also through the server's session lookup.
  const cookie = session!.split(';')[0]!;
  const headers = new Headers({ cookie });
  expect((await auth.api.getSession({ headers }))?.user.id).toBe(userId);
  expect(await staffFromHeaders(headers)).toMatchObject({ id: userId, role: 'admin' });
  // The same value under the http name is not accepted.
  expect(await auth.api.getSession({ headers: new Headers({ cookie: cookie.replace(/^__Secure-/, '') }) })).toBeNull();
});

it('lets the session idle for SESSION_IDLE_HOURS, not the 12 h default', async () => {
  const before = Date.now();
  const response = await auth.api.signInEmail({ body: { email: 'ada@example.com', password: PASSWORD }, asResponse: true });
  const { token } = (await response.json()) as { token: string };
  const [row] = await (await getDb()).select().from(staffSessions).where(eq(staffSessions.token, token));
  const twoHours = 2 * 60 * 60 * 1000;
  expect(row!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + twoHours - 5_000);
  expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + twoHours + 5_000);
  expect(response.headers.getSetCookie().find((l) => l.startsWith('__Secure-vdesk.session_token='))).toContain('Max-Age=7200');
});
