// First-run setup against a real database (in-memory PGlite, and PostgreSQL in the postgres
// project): the token is one-time, stored only as a hash, issued once for the whole deployment
// (however many instances start together), good for a limited time, replaced only on request,
// and setup creates exactly one administrator even when raced.
import { createHash } from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Db, getDb, schema } from '@/lib/db';
import { auditEntries, setupTokens, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { getCliAuth } from './auth';
import {
  claimSetupAtStart,
  completeSetup,
  isSetupOpen,
  isSetupTokenValid,
  issueSetupToken,
  SETUP_TOKEN_LIFETIME_HOURS,
  SetupClosedError,
  StaffError,
} from './setup';

const ADMIN = { name: 'Ada Admin', email: 'Ada@Example.com', password: 'correct horse battery staple' };

const tokenRows = async () => (await getDb()).select().from(setupTokens);
const users = async () => (await getDb()).select().from(staffUsers).orderBy(asc(staffUsers.createdAt));
const audit = async () => (await getDb()).select().from(auditEntries);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  await getDb();
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(staffUsers);
  await db.delete(setupTokens);
  await db.delete(auditEntries);
});

afterAll(async () => {
  await closeDatabases();
});

describe('issueSetupToken', () => {
  it('issues a long random token while nobody has an account, and stores only its hash', async () => {
    const token = await issueSetupToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const rows = await tokenRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token!).digest('hex'));
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token!.slice(0, 16));
    expect(await isSetupTokenValid(token!)).toBe(true);
  });

  it('replaces the previous token: the old one stops working', async () => {
    const first = await issueSetupToken();
    const second = await issueSetupToken();
    expect(second).not.toBe(first);
    expect(await tokenRows()).toHaveLength(1);
    expect(await isSetupTokenValid(first!)).toBe(false);
    expect(await isSetupTokenValid(second!)).toBe(true);
    await expect(completeSetup(first!, ADMIN)).rejects.toBeInstanceOf(SetupClosedError);
    expect(await users()).toEqual([]);
  });

  it('issues nothing, and removes any old token, once an account exists', async () => {
    const old = await issueSetupToken();
    await createStaff(null, { name: 'Cli Admin', email: 'cli@example.com', role: 'admin', password: ADMIN.password });

    expect(await issueSetupToken()).toBeNull();
    expect(await tokenRows()).toEqual([]);
    expect(await isSetupOpen()).toBe(false);
    expect(await isSetupTokenValid(old!)).toBe(false);
  });
});

describe('claimSetupAtStart (what a starting instance does)', () => {
  it('issues a token when none exists, then keeps it: a later start is told it is pending and the link still works', async () => {
    const first = await claimSetupAtStart();
    expect(first).toEqual({ state: 'issued', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const token = (first as { token: string }).token;

    const second = await claimSetupAtStart();
    expect(second).toEqual({ state: 'pending', issuedAt: expect.any(Date) });
    expect(await tokenRows()).toHaveLength(1);
    expect(await isSetupTokenValid(token)).toBe(true);
  });

  it('replaces a token older than its lifetime, which no longer works', async () => {
    const old = (await issueSetupToken())!;
    const db = await getDb();
    await db.update(setupTokens).set({ createdAt: sql`now() - make_interval(hours => ${SETUP_TOKEN_LIFETIME_HOURS + 1})` });
    expect(await isSetupTokenValid(old)).toBe(false);
    await expect(completeSetup(old, ADMIN)).rejects.toBeInstanceOf(SetupClosedError);

    const fresh = await claimSetupAtStart();
    expect(fresh.state).toBe('issued');
    expect(await tokenRows()).toHaveLength(1);
    expect(await isSetupTokenValid((fresh as { token: string }).token)).toBe(true);
  });

  it('is closed, and removes any token, once an account exists', async () => {
    await issueSetupToken();
    await createStaff(null, { name: 'Cli Admin', email: 'cli@example.com', role: 'admin', password: ADMIN.password });
    expect(await claimSetupAtStart()).toEqual({ state: 'closed' });
    expect(await tokenRows()).toEqual([]);
  });

  it('issues exactly one token when several instances start together on one database', async () => {
    // On PostgreSQL the second "instance" is an independent pool (its own connections, as a second
    // process has); on the embedded store, one process is all there can be.
    const url = process.env.DATABASE_URL;
    const otherPool = url ? new pg.Pool({ connectionString: url, max: 4 }) : null;
    const other: Db = otherPool ? (drizzle({ client: otherPool, schema }) as unknown as Db) : await getDb();
    try {
      const starts = await Promise.all(Array.from({ length: 8 }, (_, i) => claimSetupAtStart(i % 2 === 0 ? undefined : other)));
      const issued = starts.filter((start) => start.state === 'issued');
      expect(issued).toHaveLength(1);
      expect(starts.filter((start) => start.state === 'pending')).toHaveLength(7);
      expect(await tokenRows()).toHaveLength(1);
      // The link the first instance shows is the one that works.
      expect(await isSetupTokenValid((issued[0] as { token: string }).token)).toBe(true);
    } finally {
      await otherPool?.end();
    }
  });
});

describe("issueSetupToken (the staff CLI's setup-link)", () => {
  it('replaces a live token on request: the new link works, the earlier one stops', async () => {
    const started = (await claimSetupAtStart()) as { token: string };
    const fresh = (await issueSetupToken())!;
    expect(await isSetupTokenValid(fresh)).toBe(true);
    expect(await isSetupTokenValid(started.token)).toBe(false);
    // A start after that keeps the fresh one.
    expect((await claimSetupAtStart()).state).toBe('pending');
    expect(await isSetupTokenValid(fresh)).toBe(true);
  });
});

describe('isSetupTokenValid', () => {
  it('refuses wrong, short, empty and altered tokens', async () => {
    const token = (await issueSetupToken())!;
    const other = 'x'.repeat(43);
    for (const candidate of [
      other,
      token.slice(0, 10),
      token.slice(0, 15),
      '',
      `${token}x`,
      token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
      ` ${token}`,
      'a'.repeat(500),
    ]) {
      expect({ candidate, valid: await isSetupTokenValid(candidate) }).toEqual({ candidate, valid: false });
    }
    // A token presented as a hash is refused too: knowing the stored value must not help.
    const [row] = await tokenRows();
    expect(await isSetupTokenValid(row!.tokenHash)).toBe(false);
    expect(await isSetupTokenValid(token)).toBe(true);
  });

  it('refuses anything when no token was issued', async () => {
    expect(await isSetupTokenValid('x'.repeat(43))).toBe(false);
  });
});

describe('completeSetup', () => {
  it('creates an administrator, audits setup.completed, and closes setup', async () => {
    const token = (await issueSetupToken())!;
    const id = await completeSetup(token, ADMIN);

    expect(await users()).toEqual([
      expect.objectContaining({ id, name: 'Ada Admin', email: 'ada@example.com', role: 'admin', disabled: false }),
    ]);
    expect(await audit()).toEqual([expect.objectContaining({ actorId: id, action: 'setup.completed', targetType: 'staff', targetId: id })]);
    expect(await tokenRows()).toEqual([]);
    expect(await isSetupOpen()).toBe(false);
    expect(await isSetupTokenValid(token)).toBe(false);

    // The administrator's password works with the real sign-in.
    const auth = await getCliAuth();
    const response = await auth.api.signInEmail({ body: { email: 'ada@example.com', password: ADMIN.password }, asResponse: true });
    expect(response.status).toBe(200);
  });

  it('works once: a second call, even with the same token, is refused and writes nothing', async () => {
    const token = (await issueSetupToken())!;
    await completeSetup(token, ADMIN);
    const before = { users: await users(), audit: await audit() };

    const again = await rejection(completeSetup(token, { ...ADMIN, email: 'mallory@example.com', name: 'Mallory' }));
    expect(again).toBeInstanceOf(SetupClosedError);
    // Also with the very same details (not a duplicate-e-mail error: setup is closed).
    expect(await rejection(completeSetup(token, ADMIN))).toBeInstanceOf(SetupClosedError);

    expect(await users()).toEqual(before.users);
    expect(await audit()).toEqual(before.audit);
  });

  it('refuses a common password on the password field, writes nothing, and leaves the link working', async () => {
    const token = (await issueSetupToken())!;
    const refused = await rejection(completeSetup(token, { ...ADMIN, password: '1q2w3e4r5t6y' }));
    expect(refused).toBeInstanceOf(StaffError);
    expect(refused).toMatchObject({ field: 'password' });
    expect(await users()).toEqual([]);
    expect(await audit()).toEqual([]);
    expect(await completeSetup(token, ADMIN)).toEqual(expect.any(String));
  });

  it('refuses a wrong token and writes nothing', async () => {
    await issueSetupToken();
    expect(await rejection(completeSetup('y'.repeat(43), ADMIN))).toBeInstanceOf(SetupClosedError);
    expect(await rejection(completeSetup('', ADMIN))).toBeInstanceOf(SetupClosedError);
    expect(await users()).toEqual([]);
    expect(await audit()).toEqual([]);
    expect(await tokenRows()).toHaveLength(1);
  });

  it('refuses when an account was created some other way, even with a token issued before', async () => {
    const token = (await issueSetupToken())!;
    await createStaff(null, { name: 'Cli Admin', email: 'cli@example.com', role: 'admin', password: ADMIN.password });
    expect(await rejection(completeSetup(token, ADMIN))).toBeInstanceOf(SetupClosedError);
    expect((await users()).map((u) => u.email)).toEqual(['cli@example.com']);
  });

  it('creates exactly one administrator when several complete setup at the same time', async () => {
    const token = (await issueSetupToken())!;
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        completeSetup(token, { name: `Racer ${i}`, email: `racer${i}@example.com`, password: ADMIN.password }),
      ),
    );

    const fulfilled = results.filter((r): r is PromiseFulfilledResult<string> => r.status === 'fulfilled');
    expect(fulfilled).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(SetupClosedError);

    const all = await users();
    expect(all).toEqual([expect.objectContaining({ id: fulfilled[0]!.value, role: 'admin' })]);
    expect((await audit()).filter((e) => e.action === 'setup.completed')).toHaveLength(1);
  });
});
