// Signing in and out through real better-auth on a real (in-memory) PGlite database, over
// http (the https cookie is in sign-in-https.test.ts: the auth instance is built once per
// process from the environment). getCliAuth() is the server's configuration without the
// nextCookies plugin, which needs a Next.js request to write cookies into.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { staffSessions, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { changeStaffRole, createStaff, disableStaff } from '@/lib/staff/staff-accounts';
import { type Auth, getAuth, getCliAuth } from './auth';
import { staffFromHeaders } from './session';

const PASSWORD = 'correct horse battery staple';
const COOKIE = 'vdesk.session_token';

let auth: Auth;
let adminId: string;
let operatorId: string;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  delete process.env.SESSION_IDLE_HOURS;
  // In memory there is no data directory to keep a generated secret in, so getAuth() and
  // getCliAuth() would each make up their own; a fixed secret lets a cookie issued by one be
  // read by the other, as on disk, where both read the same auth-secret file.
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-sign-in-tests-0123456789';
  resetEnv();
  auth = await getCliAuth();
  adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  operatorId = await createStaff(adminId, { name: 'Otto Operator', email: 'otto@example.com', role: 'operator', password: PASSWORD });
});

beforeEach(async () => {
  await (await getDb()).delete(staffSessions);
});

afterAll(async () => {
  await closeDatabases();
});

type Cookie = { name: string; value: string; attributes: Record<string, string | true> };

/** Every Set-Cookie of a response, attributes keyed in lower case. */
function parseSetCookie(headers: Headers): Cookie[] {
  return headers.getSetCookie().map((line) => {
    const [pair, ...rest] = line.split(';');
    const eq = pair!.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const part of rest) {
      const [key, ...value] = part.trim().split('=');
      attributes[key!.toLowerCase()] = value.length > 0 ? value.join('=') : true;
    }
    return { name: pair!.slice(0, eq).trim(), value: pair!.slice(eq + 1).trim(), attributes };
  });
}

type SignedIn = { token: string; cookie: Cookie; headers: Headers };

/** Signs in for real and returns the session cookie as a browser would send it back. */
async function signIn(auth: Auth, email: string, password: string): Promise<SignedIn> {
  const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
  expect(response.status).toBe(200);
  const cookie = parseSetCookie(response.headers).find((c) => c.name === COOKIE);
  if (!cookie) throw new Error('no session cookie');
  const body = (await response.json()) as { token: string };
  return { token: body.token, cookie, headers: new Headers({ cookie: `${cookie.name}=${cookie.value}` }) };
}

const sessionRows = async (userId: string) =>
  (await getDb()).select().from(staffSessions).where(eq(staffSessions.userId, userId)).orderBy(asc(staffSessions.createdAt));

describe('signInEmail', () => {
  it('answers 200 with an HttpOnly, SameSite=Lax session cookie that is not Secure over http', async () => {
    const response = await auth.api.signInEmail({ body: { email: 'ada@example.com', password: PASSWORD }, asResponse: true });
    expect(response.status).toBe(200);

    const cookies = parseSetCookie(response.headers);
    const session = cookies.find((c) => c.name === COOKIE);
    expect(session, JSON.stringify(cookies)).toBeDefined();
    expect(session!.value).not.toBe('');
    expect(session!.attributes.httponly).toBe(true);
    expect(String(session!.attributes.samesite).toLowerCase()).toBe('lax');
    expect(session!.attributes.path).toBe('/');
    expect(session!.attributes.secure).toBeUndefined();
    // Nothing else identifying is set, and no cookie is readable by scripts.
    for (const cookie of cookies) expect(cookie.attributes.httponly, cookie.name).toBe(true);
  });

  it('stores the session server-side, expiring about SESSION_IDLE_HOURS (12 h by default) ahead', async () => {
    const before = Date.now();
    const signed = await signIn(auth, 'ada@example.com', PASSWORD);
    const rows = await sessionRows(adminId);
    expect(rows).toHaveLength(1);
    // The cookie carries the session's token (signed), and the server knows it.
    expect(signed.token).toBe(rows[0]!.token);

    const twelveHours = 12 * 60 * 60 * 1000;
    expect(rows[0]!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + twelveHours - 5_000);
    expect(rows[0]!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + twelveHours + 5_000);
    expect(signed.cookie.attributes['max-age']).toBe(String(12 * 60 * 60));
  });

  it('answers an unknown e-mail and a wrong password with the same status and the same body', async () => {
    const unknown = await auth.api.signInEmail({ body: { email: 'nobody@example.com', password: PASSWORD }, asResponse: true });
    const wrong = await auth.api.signInEmail({
      body: { email: 'ada@example.com', password: 'wrong horse battery staple' },
      asResponse: true,
    });

    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBe(unknown.status);
    expect(await wrong.json()).toEqual(await unknown.json());
    expect(parseSetCookie(unknown.headers).filter((c) => c.value !== '')).toEqual([]);
    expect(parseSetCookie(wrong.headers).filter((c) => c.value !== '')).toEqual([]);
    expect(await sessionRows(adminId)).toEqual([]);
  });

  it('gives two sign-ins two different session tokens, both valid until ended', async () => {
    const first = await signIn(auth, 'ada@example.com', PASSWORD);
    const second = await signIn(auth, 'ada@example.com', PASSWORD);
    expect(second.token).not.toBe(first.token);
    expect(second.cookie.value).not.toBe(first.cookie.value);
    expect(await sessionRows(adminId)).toHaveLength(2);
    expect((await auth.api.getSession({ headers: first.headers }))?.user.id).toBe(adminId);
    expect((await auth.api.getSession({ headers: second.headers }))?.user.id).toBe(adminId);
  });

  it('signs a disabled account out for good: no new session even with the right password', async () => {
    const id = await createStaff(adminId, { name: 'Dora Disabled', email: 'dora@example.com', role: 'viewer', password: PASSWORD });
    await disableStaff(adminId, id);

    const response = await auth.api.signInEmail({ body: { email: 'dora@example.com', password: PASSWORD }, asResponse: true });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(parseSetCookie(response.headers).filter((c) => c.name === COOKIE && c.value !== '')).toEqual([]);
    expect(await sessionRows(id)).toEqual([]);
  });
});

describe('ending sessions', () => {
  it('sign-out invalidates the session server-side: the old cookie no longer yields a session', async () => {
    const signed = await signIn(auth, 'otto@example.com', PASSWORD);
    expect((await auth.api.getSession({ headers: signed.headers }))?.user.id).toBe(operatorId);

    const response = await auth.api.signOut({ headers: signed.headers, asResponse: true });
    expect(response.status).toBe(200);
    // The browser is told to drop the cookie, but what matters is that replaying it fails.
    expect(parseSetCookie(response.headers).find((c) => c.name === COOKIE)?.attributes['max-age']).toBe('0');

    expect(await auth.api.getSession({ headers: signed.headers })).toBeNull();
    expect(await sessionRows(operatorId)).toEqual([]);
  });

  it('sign-out ends only that session', async () => {
    const kept = await signIn(auth, 'otto@example.com', PASSWORD);
    const ended = await signIn(auth, 'otto@example.com', PASSWORD);
    await auth.api.signOut({ headers: ended.headers });
    expect(await auth.api.getSession({ headers: ended.headers })).toBeNull();
    expect((await auth.api.getSession({ headers: kept.headers }))?.user.id).toBe(operatorId);
  });

  it('disabling an account ends its open sessions at once', async () => {
    const id = await createStaff(adminId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
    const signed = await signIn(auth, 'vic@example.com', PASSWORD);
    expect((await auth.api.getSession({ headers: signed.headers }))?.user.id).toBe(id);

    await disableStaff(adminId, id);

    expect(await auth.api.getSession({ headers: signed.headers })).toBeNull();
    expect(await staffFromHeaders(signed.headers)).toBeNull();
  });

  it('refuses a cookie whose signature has been tampered with, and a token without its signature', async () => {
    const signed = await signIn(auth, 'otto@example.com', PASSWORD);
    const [token, signature] = decodeURIComponent(signed.cookie.value).split('.');
    const forged = `${token}.${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`;
    expect(await auth.api.getSession({ headers: new Headers({ cookie: `${COOKIE}=${encodeURIComponent(forged)}` }) })).toBeNull();
    expect(await auth.api.getSession({ headers: new Headers({ cookie: `${COOKIE}=${token}` }) })).toBeNull();
  });
});

describe('staffFromHeaders (through getAuth(), outside any Next.js request)', () => {
  let signed: SignedIn;

  beforeEach(async () => {
    signed = await signIn(auth, 'otto@example.com', PASSWORD);
  });

  it('returns the staff member with role and session id for a valid cookie', async () => {
    const staff = await staffFromHeaders(signed.headers);
    const [row] = await sessionRows(operatorId);
    expect(staff).toEqual({ id: operatorId, name: 'Otto Operator', email: 'otto@example.com', role: 'operator', sessionId: row!.id });
  });

  it('returns null without a cookie, and for garbage', async () => {
    expect(await staffFromHeaders(new Headers())).toBeNull();
    for (const cookie of [`${COOKIE}=garbage`, `${COOKIE}=`, `${COOKIE}=a.b.c`, 'other=1', `__Secure-${COOKIE}=${signed.cookie.value}`]) {
      expect({ cookie, staff: await staffFromHeaders(new Headers({ cookie })) }).toEqual({ cookie, staff: null });
    }
  });

  it('sees a role change at once (no cookie cache; the cache of validated sessions is emptied)', async () => {
    expect((await staffFromHeaders(signed.headers))?.role).toBe('operator');
    await changeStaffRole(adminId, operatorId, 'viewer');
    try {
      expect((await staffFromHeaders(signed.headers))?.role).toBe('viewer');
    } finally {
      await changeStaffRole(adminId, operatorId, 'operator');
    }
  });

  it('returns null for a session whose row says disabled, even if the session row survived', async () => {
    // Belt and braces: disableStaff deletes sessions, but a disabled flag alone must suffice.
    const db = await getDb();
    await db.update(staffUsers).set({ disabled: true }).where(eq(staffUsers.id, operatorId));
    try {
      expect(await sessionRows(operatorId)).toHaveLength(1);
      expect(await staffFromHeaders(signed.headers)).toBeNull();
    } finally {
      await db.update(staffUsers).set({ disabled: false }).where(eq(staffUsers.id, operatorId));
    }
  });

  it('moves the idle end forward when a session is used after more than 15 minutes', async () => {
    // As if signed in an hour ago: 11 of the 12 idle hours left.
    const db = await getDb();
    const elevenHours = 11 * 60 * 60 * 1000;
    await db
      .update(staffSessions)
      .set({ expiresAt: new Date(Date.now() + elevenHours) })
      .where(eq(staffSessions.userId, operatorId));

    expect(await staffFromHeaders(signed.headers)).toMatchObject({ id: operatorId });

    const [row] = await sessionRows(operatorId);
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + elevenHours + 30 * 60 * 1000);
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 12 * 60 * 60 * 1000 + 5_000);
  });

  it('validates a session used a moment ago from memory: one lookup for many requests', async () => {
    const getSession = vi.spyOn((await getAuth()).api, 'getSession');
    try {
      for (let i = 0; i < 5; i++) expect((await staffFromHeaders(signed.headers))?.id).toBe(operatorId);
      expect(getSession).toHaveBeenCalledTimes(1);
      // Other cookies do not matter, only the session's.
      const withOthers = new Headers({ cookie: `theme=dark; ${signed.headers.get('cookie')}; x=1` });
      expect((await staffFromHeaders(withOthers))?.id).toBe(operatorId);
      expect(getSession).toHaveBeenCalledTimes(1);
    } finally {
      getSession.mockRestore();
    }
  });

  it('ends a session used a moment ago at once on sign-out, not after the cache TTL', async () => {
    expect((await staffFromHeaders(signed.headers))?.id).toBe(operatorId);
    await (await getAuth()).api.signOut({ headers: signed.headers });
    expect(await staffFromHeaders(signed.headers)).toBeNull();
  });

  it('ends the sessions of an account used a moment ago at once when it is disabled', async () => {
    const id = await createStaff(adminId, {
      name: 'Cas Cached',
      email: `cas-${Date.now()}@example.com`,
      role: 'viewer',
      password: PASSWORD,
    });
    const [row] = await (await getDb()).select({ email: staffUsers.email }).from(staffUsers).where(eq(staffUsers.id, id));
    const cas = await signIn(auth, row!.email, PASSWORD);
    expect((await staffFromHeaders(cas.headers))?.id).toBe(id);
    expect((await staffFromHeaders(cas.headers))?.id).toBe(id);
    await disableStaff(adminId, id);
    expect(await staffFromHeaders(cas.headers)).toBeNull();
  });

  it('returns null once the session has expired', async () => {
    await (await getDb())
      .update(staffSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(staffSessions.userId, operatorId));
    expect(await staffFromHeaders(signed.headers)).toBeNull();
  });
});
