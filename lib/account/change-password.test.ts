// Changing one's own password through better-auth's real changePassword, on a real database:
// the current password is required and its wrong guesses are throttled like sign-ins, the new
// one must pass the password rules, and the other sessions end when asked.
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCliAuth } from '@/lib/auth/auth';
import { PAIR_FREE_FAILURES } from '@/lib/auth/throttle';
import { getDb } from '@/lib/db';
import { auditEntries, signInThrottle, staffAccounts, staffSessions } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { type SignedInBrowser, signInAs, USER_AGENTS } from '@/test/support/staff-sign-in';
import { changeOwnPassword, type PasswordChangeRequest } from './change-password';

const OLD = 'the old password of olga';
const NEW = 'a brand new password for olga';
const EMAIL = 'olga@example.com';
const IP = '192.0.2.10';

let olgaId: string;
let here: SignedInBrowser;

async function passwordWorks(password: string): Promise<boolean> {
  const auth = await getCliAuth();
  const response = await auth.api.signInEmail({ body: { email: EMAIL, password }, asResponse: true });
  return response.status === 200;
}

async function change(overrides: Partial<PasswordChangeRequest>) {
  return changeOwnPassword(await getCliAuth(), {
    staff: { id: olgaId, email: EMAIL, sessionId: here.sessionId },
    currentPassword: OLD,
    newPassword: NEW,
    endOthers: true,
    headers: here.headers,
    ip: IP,
    ...overrides,
  });
}

const sessionIds = async () =>
  (await (await getDb()).select({ id: staffSessions.id }).from(staffSessions).where(eq(staffSessions.userId, olgaId))).map((s) => s.id);

const auditActions = async () =>
  (await (await getDb()).select().from(auditEntries).orderBy(asc(auditEntries.at))).map((entry) => ({
    action: entry.action,
    actorId: entry.actorId,
    targetId: entry.targetId,
    details: entry.details,
  }));

/** Olga's credential as created, put back before each test rather than hashed again (scrypt). */
let oldHash: string;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-change-password-0123456789';
  resetEnv();
  olgaId = await createStaff(null, { name: 'Olga Operator', email: EMAIL, role: 'operator', password: OLD });
  const [credential] = await (await getDb()).select().from(staffAccounts).where(eq(staffAccounts.userId, olgaId));
  oldHash = credential!.password!;
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(staffSessions).where(eq(staffSessions.userId, olgaId));
  await db.update(staffAccounts).set({ password: oldHash }).where(eq(staffAccounts.userId, olgaId));
  await db.delete(signInThrottle);
  here = await signInAs(EMAIL, OLD, USER_AGENTS.chromeOnLinux);
  await db.delete(auditEntries);
});

afterAll(async () => {
  await closeDatabases();
});

describe('changeOwnPassword', () => {
  it('changes the password: the old one stops working, the new one works, audited as password.changed', async () => {
    expect(await change({ endOthers: false })).toEqual({ outcome: 'changed', otherSessionsEnded: 0 });
    expect(await passwordWorks(OLD)).toBe(false);
    expect(await passwordWorks(NEW)).toBe(true);
    expect(await auditActions()).toEqual([{ action: 'password.changed', actorId: olgaId, targetId: olgaId, details: null }]);
  });

  it('refuses a wrong current password and changes nothing', async () => {
    expect(await change({ currentPassword: 'not the old password at all' })).toEqual({ outcome: 'wrong-current' });
    expect(await passwordWorks(OLD)).toBe(true);
    expect(await passwordWorks(NEW)).toBe(false);
    expect(await auditActions()).toEqual([]);
  });

  it('throttles wrong current passwords: after the free ones, even the right one waits', async () => {
    for (let i = 0; i < PAIR_FREE_FAILURES; i++) {
      expect(await change({ currentPassword: `wrong guess number ${i}` })).toEqual({ outcome: 'wrong-current' });
    }
    const refused = await change({});
    expect(refused).toMatchObject({ outcome: 'throttled', scope: 'pair' });
    expect(await passwordWorks(OLD)).toBe(true);
    expect(await passwordWorks(NEW)).toBe(false);
  });

  it('refuses a common new password before the current one is judged', async () => {
    const answer = await change({ currentPassword: 'not the old password at all', newPassword: 'qwerty123456' });
    expect(answer).toMatchObject({ outcome: 'weak-password' });
    expect(answer.outcome === 'weak-password' && answer.message).toContain('one of the most common ones');
    expect(await passwordWorks(OLD)).toBe(true);
    // No guess at the current password was spent.
    expect(await (await getDb()).select().from(signInThrottle)).toEqual([]);
  });

  it('refuses a new password that is too short', async () => {
    expect(await change({ newPassword: 'short' })).toEqual({ outcome: 'weak-password', message: 'Use at least 12 characters.' });
    expect(await passwordWorks(OLD)).toBe(true);
  });

  it('with "sign out my other sessions", ends exactly the other sessions and records how many', async () => {
    const laptop = await signInAs(EMAIL, OLD, USER_AGENTS.firefoxOnWindows);
    const phone = await signInAs(EMAIL, OLD, USER_AGENTS.safariOnIphone);
    expect((await sessionIds()).sort()).toEqual([here.sessionId, laptop.sessionId, phone.sessionId].sort());

    expect(await change({ endOthers: true })).toEqual({ outcome: 'changed', otherSessionsEnded: 2 });

    expect(await sessionIds()).toEqual([here.sessionId]);
    const auth = await getCliAuth();
    expect(await auth.api.getSession({ headers: laptop.headers })).toBeNull();
    expect((await auth.api.getSession({ headers: here.headers }))?.session.id).toBe(here.sessionId);
    expect(await auditActions()).toEqual(
      expect.arrayContaining([
        { action: 'password.changed', actorId: olgaId, targetId: olgaId, details: null },
        { action: 'sessions.others_ended', actorId: olgaId, targetId: olgaId, details: { count: 2 } },
      ]),
    );
  });

  it('without it, the other sessions stay', async () => {
    const laptop = await signInAs(EMAIL, OLD, USER_AGENTS.firefoxOnWindows);
    await change({ endOthers: false });
    expect((await sessionIds()).sort()).toEqual([here.sessionId, laptop.sessionId].sort());
  });
});
