// The bound on one staff member's live sessions, through real better-auth sign-ins on a real
// database (in-memory PGlite, or PostgreSQL where concurrent sign-ins really run at once): past
// SESSIONS_PER_STAFF_MEMBER the oldest session ends, its cookie stops working at once, and the
// audit trail records it without personal data.
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, staffSessions, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { sessionCookie } from '@/test/support/session-cookie';
import { getCliAuth } from './auth';
import { staffFromHeaders } from './session';
import { SESSIONS_PER_STAFF_MEMBER } from './session-bound';

const PASSWORD = 'correct horse battery staple';

let adminId: string;
let counter = 0;

/** A new operator of their own, so each test counts only its own sessions. */
async function newMember(): Promise<{ id: string; email: string }> {
  counter += 1;
  const email = `member-${counter}@example.com`;
  const id = await createStaff(adminId, { name: `Member Number${counter}`, email, role: 'operator', password: PASSWORD });
  return { id, email };
}

async function liveSessions(userId: string) {
  const db = await getDb();
  return db
    .select({ id: staffSessions.id })
    .from(staffSessions)
    .where(and(eq(staffSessions.userId, userId), gt(staffSessions.expiresAt, new Date())));
}

async function boundAudits(userId: string) {
  const db = await getDb();
  return db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, 'sessions.oldest_ended'), eq(auditEntries.actorId, userId)));
}

const works = async (cookie: string) => (await staffFromHeaders(new Headers({ cookie }))) !== null;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  delete process.env.SESSION_IDLE_HOURS;
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-session-bound-tests-0123456789';
  resetEnv();
  adminId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
});

afterAll(async () => {
  await closeDatabases();
});

// Each test signs in a dozen times or more, each a real password hash: longer than the default.
describe(`at most ${SESSIONS_PER_STAFF_MEMBER} live sessions per staff member`, { timeout: 60_000 }, () => {
  it('a sign-in past the bound ends the oldest session: its cookie stops working at once, the newest keep working, and it is audited; one waiting for its second factor ends none', async () => {
    const member = await newMember();
    const other = await newMember();
    const othersCookie = await sessionCookie(other.email, PASSWORD);
    const cookies: string[] = [];
    for (let i = 0; i < SESSIONS_PER_STAFF_MEMBER; i += 1) cookies.push(await sessionCookie(member.email, PASSWORD));
    // Validated (and so remembered by this instance's session cache) just before it ends.
    expect(await works(cookies[0]!)).toBe(true);
    expect(await boundAudits(member.id)).toEqual([]);

    cookies.push(await sessionCookie(member.email, PASSWORD));

    expect(await works(cookies[0]!)).toBe(false);
    const auth = await getCliAuth();
    expect(await auth.api.getSession({ headers: new Headers({ cookie: cookies[0]! }) })).toBeNull();
    for (const cookie of cookies.slice(1)) expect(await works(cookie)).toBe(true);
    expect(await liveSessions(member.id)).toHaveLength(SESSIONS_PER_STAFF_MEMBER);
    // Another person's session is no part of it.
    expect(await works(othersCookie)).toBe(true);

    const audits = await boundAudits(member.id);
    expect(audits).toEqual([
      expect.objectContaining({
        action: 'sessions.oldest_ended',
        actorId: member.id,
        targetType: 'staff',
        targetId: member.id,
        details: { count: 1 },
      }),
    ]);
    expect(JSON.stringify(audits)).not.toMatch(/example\.com|Member|Number/);

    // At the bound again: a password sign-in still waiting for its second factor ends no session.
    await (await getDb()).update(staffUsers).set({ twoFactorEnabled: true }).where(eq(staffUsers.id, member.id));
    expect(await auth.api.signInEmail({ body: { email: member.email, password: PASSWORD } })).toMatchObject({ twoFactorRedirect: true });
    for (const cookie of cookies.slice(1)) expect(await works(cookie)).toBe(true);
    expect(await boundAudits(member.id)).toHaveLength(1);
  });

  it('holds under sign-ins at the same moment: at most the bound stays live, and every session ended is audited', async () => {
    const member = await newMember();
    const SIGN_INS = SESSIONS_PER_STAFF_MEMBER + 6;
    const cookies = await Promise.all(Array.from({ length: SIGN_INS }, () => sessionCookie(member.email, PASSWORD)));

    const live = await liveSessions(member.id);
    expect(live.length).toBeGreaterThan(0);
    expect(live.length).toBeLessThanOrEqual(SESSIONS_PER_STAFF_MEMBER);
    const ended = (await boundAudits(member.id)).reduce((sum, audit) => sum + Number(audit.details?.count), 0);
    expect(ended + live.length).toBe(SIGN_INS);
    const working = (await Promise.all(cookies.map(works))).filter(Boolean);
    expect(working).toHaveLength(live.length);
  });
});
