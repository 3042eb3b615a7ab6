// The break-glass sign-in link against a real database (in-memory PGlite, and PostgreSQL in the
// postgres project): only for an enabled administrator, stored only as a hash, valid for 15
// minutes, used once (also when two instances race for it), and turned into a real better-auth
// session by the server-only endpoint — none for a disabled account.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, authVerifications, staffSessions, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff, disableStaff } from '@/lib/staff/staff-accounts';
import { getCliAuth } from './auth';
import { issueSignInLink, SIGN_IN_LINK_MINUTES, SignInLinkRefusedError, signInLinkState, useSignInLink } from './sign-in-link';

let adminId: string;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

const auditOf = async (action: string) => (await (await getDb()).select().from(auditEntries)).filter((entry) => entry.action === action);

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  await getDb();
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(staffSessions);
  await db.delete(staffUsers);
  await db.delete(authVerifications);
  await db.delete(auditEntries);
  // No passwords: the link is the way in here, and each would cost a real scrypt hash per test.
  adminId = await createStaff(null, { name: 'Ada', email: 'ada@example.com', role: 'admin' });
  await createStaff(null, { name: 'Otto', email: 'otto@example.com', role: 'operator' });
  // The last active administrator cannot be disabled: a second one lets the tests disable Ada.
  await createStaff(null, { name: 'Grace', email: 'grace@example.com', role: 'admin' });
});

afterAll(async () => {
  await closeDatabases();
});

describe('issueSignInLink', () => {
  it('issues a random token for an administrator, stores only its hash, and audits the issue with ids only', async () => {
    const db = await getDb();
    const { token, userId, expiresAt } = await issueSignInLink(db, ' ADA@example.com ');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(userId).toBe(adminId);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan((SIGN_IN_LINK_MINUTES - 1) * 60_000);
    expect(expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(SIGN_IN_LINK_MINUTES * 60_000);

    const stored = JSON.stringify(await db.select().from(authVerifications));
    expect(stored).toContain(createHash('sha256').update(token).digest('hex'));
    expect(stored).not.toContain(token.slice(0, 16));

    const [issued] = await auditOf('sign_in_link.issued');
    expect(issued).toMatchObject({ targetType: 'staff', targetId: adminId });
    expect(JSON.stringify(issued)).not.toContain('ada@example.com');
  });

  it('refuses, naming why, anyone but an enabled administrator', async () => {
    const db = await getDb();
    expect(String(await rejection(issueSignInLink(db, 'otto@example.com')))).toMatch(/otto@example.com is not an administrator/);
    expect(String(await rejection(issueSignInLink(db, 'nobody@example.com')))).toMatch(
      /No staff account has the e-mail address nobody@example.com/,
    );
    await disableStaff(null, adminId);
    const disabled = await rejection(issueSignInLink(db, 'ada@example.com'));
    expect(disabled).toBeInstanceOf(SignInLinkRefusedError);
    expect(String(disabled)).toMatch(/disabled/);
    expect(await db.select().from(authVerifications)).toHaveLength(0);
    expect(await auditOf('sign_in_link.issued')).toHaveLength(0);
  });
});

describe('using a sign-in link', () => {
  it('works once: then it says used', async () => {
    const db = await getDb();
    const { token } = await issueSignInLink(db, 'ada@example.com');
    expect(await signInLinkState(db, token)).toBe('valid');
    expect(await useSignInLink(db, token)).toEqual({ userId: adminId });
    expect(await signInLinkState(db, token)).toBe('used');
    expect(await useSignInLink(db, token)).toEqual({ refused: 'used' });
  });

  it('says expired after 15 minutes, and invalid for a token nobody issued', async () => {
    const db = await getDb();
    const { token, expiresAt } = await issueSignInLink(db, 'ada@example.com');
    const later = new Date(expiresAt.getTime() + 1);
    expect(await signInLinkState(db, token, later)).toBe('expired');
    expect(await useSignInLink(db, token, later)).toEqual({ refused: 'expired' });
    expect(await useSignInLink(db, 'A'.repeat(43))).toEqual({ refused: 'invalid' });
    expect(await signInLinkState(db, "' OR 1=1 --")).toBe('invalid');
  });

  it('a newer link voids the earlier unused one of the same administrator, and only that one', async () => {
    const db = await getDb();
    const first = await issueSignInLink(db, 'ada@example.com');
    const grace = await issueSignInLink(db, 'grace@example.com');
    const second = await issueSignInLink(db, 'ADA@example.com');
    expect(await signInLinkState(db, first.token)).toBe('invalid');
    expect(await useSignInLink(db, first.token)).toEqual({ refused: 'invalid' });
    expect(await signInLinkState(db, second.token)).toBe('valid');
    // Another administrator's link is theirs: it stays valid.
    expect(await signInLinkState(db, grace.token)).toBe('valid');
    expect(await useSignInLink(db, second.token)).toEqual({ userId: adminId });

    // A used link is not voided by the next one: opening it again still says "used".
    const third = await issueSignInLink(db, 'ada@example.com');
    expect(await signInLinkState(db, second.token)).toBe('used');
    expect(await useSignInLink(db, third.token)).toEqual({ userId: adminId });
  });

  it('lets exactly one of several simultaneous uses through', async () => {
    const db = await getDb();
    const { token } = await issueSignInLink(db, 'ada@example.com');
    const results = await Promise.all(Array.from({ length: 5 }, () => useSignInLink(db, token)));
    expect(results.filter((result) => 'userId' in result)).toHaveLength(1);
  });

  it('becomes a better-auth session for the administrator, audited as sign_in_link.used', async () => {
    const db = await getDb();
    const auth = await getCliAuth();
    const { token } = await issueSignInLink(db, 'ada@example.com');
    const { headers, response } = await auth.api.signInWithLink({ body: { token }, headers: new Headers(), returnHeaders: true });
    expect(response.userId).toBe(adminId);
    expect(headers.get('set-cookie')).toMatch(/vdesk\.session_token=/);
    expect(await db.select().from(staffSessions).where(eq(staffSessions.userId, adminId))).toHaveLength(1);
    expect(await auditOf('sign_in_link.used')).toMatchObject([{ actorId: adminId }]);

    const again = await rejection(auth.api.signInWithLink({ body: { token }, headers: new Headers() }));
    expect(again).toMatchObject({ body: { code: 'used' } });
  });

  it('gives a disabled administrator no session', async () => {
    const db = await getDb();
    const auth = await getCliAuth();
    const { token } = await issueSignInLink(db, 'ada@example.com');
    await disableStaff(null, adminId);
    const refused = await rejection(auth.api.signInWithLink({ body: { token }, headers: new Headers() }));
    expect(refused).toMatchObject({ body: { code: 'refused' } });
    expect(await db.select().from(staffSessions)).toHaveLength(0);
    expect(await auditOf('sign_in_link.used')).toHaveLength(0);
  });
});
