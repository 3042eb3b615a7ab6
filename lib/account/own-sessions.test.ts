// One's own sessions on a real database: the list the account page shows, and "sign out all
// other sessions", which ends exactly the others — and, run on another instance (a pool of its
// own on the same PostgreSQL server), ends them on this one at once, cached validations included.
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { staffFromHeaders } from '@/lib/auth/session';
import { getDb, schema } from '@/lib/db';
import { auditEntries, staffSessions } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { openOtherInstanceDb } from '@/test/support/second-instance';
import { signInAs, USER_AGENTS } from '@/test/support/staff-sign-in';
import { endOtherSessions, listOwnSessions } from './own-sessions';

const PASSWORD = 'correct horse battery staple';
/** Far shorter than any periodic check, and than a cached validation could otherwise live here. */
const GENEROUS_WAIT_MS = 15_000;

let olgaId: string;
let veraId: string;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-own-sessions-0123456789';
  resetEnv();
  // Once for the file (each password is a real scrypt hash); each test starts without sessions.
  olgaId = await createStaff(null, { name: 'Olga Operator', email: 'olga@example.com', role: 'operator', password: PASSWORD });
  veraId = await createStaff(null, { name: 'Vera Viewer', email: 'vera@example.com', role: 'viewer', password: PASSWORD });
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(staffSessions);
  await db.delete(auditEntries);
});

afterAll(async () => {
  await closeDatabases();
});

describe('listOwnSessions', () => {
  it("lists the person's own sessions with browser and system, this device first, and nobody else's", async () => {
    const laptop = await signInAs('olga@example.com', PASSWORD, USER_AGENTS.firefoxOnWindows);
    const here = await signInAs('olga@example.com', PASSWORD, USER_AGENTS.chromeOnLinux);
    await signInAs('vera@example.com', PASSWORD, USER_AGENTS.safariOnIphone);

    const sessions = await listOwnSessions(olgaId, here.sessionId);

    expect(sessions.map(({ id, device, current }) => ({ id, device, current }))).toEqual([
      { id: here.sessionId, device: 'Chrome 131 on Linux', current: true },
      { id: laptop.sessionId, device: 'Firefox 133 on Windows', current: false },
    ]);
    for (const session of sessions) {
      expect(session.signedInAt).toBeInstanceOf(Date);
      expect(session.lastActiveAt).toBeInstanceOf(Date);
      // Only what the page shows: no address, no token.
      expect(Object.keys(session).sort()).toEqual(['current', 'device', 'id', 'lastActiveAt', 'signedInAt']);
    }
  });
});

describe('endOtherSessions', { timeout: 60_000 }, () => {
  it('run on another instance, ends exactly the other sessions on this one at once, and records how many', async () => {
    const here = await signInAs('olga@example.com', PASSWORD, USER_AGENTS.chromeOnLinux);
    const laptop = await signInAs('olga@example.com', PASSWORD, USER_AGENTS.firefoxOnWindows);
    const phone = await signInAs('olga@example.com', PASSWORD, USER_AGENTS.safariOnIphone);
    const colleague = await signInAs('vera@example.com', PASSWORD);

    // Every look on this instance happens at one moment, so the cache's TTL cannot end an
    // entry: only the other instance's notice can.
    const validatedAt = Date.now();
    const staffHere = async (headers: Headers) => {
      vi.useFakeTimers({ toFake: ['Date'], now: validatedAt });
      try {
        return (await staffFromHeaders(headers))?.sessionId ?? null;
      } finally {
        vi.useRealTimers();
      }
    };
    for (const browser of [here, laptop, phone, colleague]) expect(await staffHere(browser.headers)).toBe(browser.sessionId);

    const other = openOtherInstanceDb(schema, await getDb());
    try {
      expect(await endOtherSessions(olgaId, here.sessionId, { db: other.db })).toBe(2);
    } finally {
      await other.close();
    }

    await vi.waitFor(
      async () => {
        expect(await staffHere(laptop.headers)).toBeNull();
        expect(await staffHere(phone.headers)).toBeNull();
      },
      { timeout: GENEROUS_WAIT_MS, interval: 20 },
    );
    expect(await staffHere(here.headers)).toBe(here.sessionId);
    expect(await staffHere(colleague.headers)).toBe(colleague.sessionId);
    expect((await listOwnSessions(olgaId, here.sessionId)).map((session) => session.id)).toEqual([here.sessionId]);
    expect((await listOwnSessions(veraId, colleague.sessionId)).map((session) => session.id)).toEqual([colleague.sessionId]);

    const audit = await (await getDb()).select().from(auditEntries).orderBy(asc(auditEntries.at));
    expect(audit.map(({ action, actorId, targetId, details }) => ({ action, actorId, targetId, details }))).toEqual([
      { action: 'sessions.others_ended', actorId: olgaId, targetId: olgaId, details: { count: 2 } },
    ]);
  });

  it('with no other session, ends nothing and records nothing', async () => {
    const here = await signInAs('olga@example.com', PASSWORD);
    expect(await endOtherSessions(olgaId, here.sessionId)).toBe(0);
    expect(await (await getDb()).select().from(auditEntries)).toEqual([]);
  });
});
