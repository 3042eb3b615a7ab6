// Staff management against a real (in-memory) PGlite database: what each change writes, that
// the change and its audit entry stand or fall together, and the last-administrator rule.
import { randomUUID } from 'node:crypto';
import { verifyPassword } from 'better-auth/crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCliAuth } from '@/lib/auth/auth';
import type { StaffRole } from '@/lib/auth/roles';
import { getDb } from '@/lib/db';
import { auditEntries, staffAccounts, staffSessions, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import {
  changeStaffRole,
  countStaff,
  createStaff,
  disableStaff,
  enableStaff,
  findStaffIdByEmail,
  listStaff,
  StaffError,
} from './staff-accounts';

const PASSWORD = 'correct horse battery staple';

const db = () => getDb();

async function counts() {
  const d = await db();
  const [users] = await d.select({ n: sql<number>`count(*)::int` }).from(staffUsers);
  const [accounts] = await d.select({ n: sql<number>`count(*)::int` }).from(staffAccounts);
  const [audit] = await d.select({ n: sql<number>`count(*)::int` }).from(auditEntries);
  return { users: users!.n, accounts: accounts!.n, audit: audit!.n };
}

async function userRow(id: string) {
  const [row] = await (await db()).select().from(staffUsers).where(eq(staffUsers.id, id));
  return row;
}

async function auditRows() {
  return (await db()).select().from(auditEntries).orderBy(asc(auditEntries.at), asc(auditEntries.id));
}

/** A password (hashed at the real scrypt cost, most of an account's creation time) only where a test needs one. */
async function add(name: string, role: StaffRole, actorId: string | null = null, { withPassword = false } = {}) {
  const email = `${name.toLowerCase()}@example.com`;
  return createStaff(actorId, { name, email, role, ...(withPassword ? { password: PASSWORD } : {}) });
}

async function insertSession(userId: string) {
  const id = randomUUID();
  await (await db()).insert(staffSessions).values({ id, token: randomUUID(), userId, expiresAt: new Date(Date.now() + 3_600_000) });
  return id;
}

/**
 * Makes every insert into audit_entries fail, with a real trigger in the database, so that a
 * change whose audit entry cannot be written can be seen to leave nothing behind.
 */
async function breakAuditTable() {
  const d = await db();
  await d.execute(
    sql`create or replace function test_refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused by test'; end $$`,
  );
  await d.execute(sql`create trigger test_refuse_audit before insert on audit_entries for each row execute function test_refuse_audit()`);
  return async () => {
    await d.execute(sql`drop trigger test_refuse_audit on audit_entries`);
  };
}

/** Drizzle wraps the database error; the trigger's message is in its cause. */
async function expectAuditRefused(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  expect(String((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message)).toContain('audit refused by test');
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  await getDb();
});

beforeEach(async () => {
  const d = await db();
  // Sessions and credential accounts go with their users (on delete cascade).
  await d.delete(staffUsers);
  await d.delete(auditEntries);
});

afterAll(async () => {
  await closeDatabases();
});

describe('createStaff', () => {
  it('writes the user, a credential account with a hashed password, and a staff.created audit entry', async () => {
    const actor = await add('Root', 'admin');
    const id = await createStaff(actor, {
      name: '  Olivia Operator ',
      email: '  Olivia.Op@Example.COM ',
      role: 'operator',
      password: PASSWORD,
    });

    const user = await userRow(id);
    expect(user).toMatchObject({
      id,
      name: 'Olivia Operator',
      email: 'olivia.op@example.com',
      role: 'operator',
      disabled: false,
      emailVerified: true,
    });

    const accounts = await (await db()).select().from(staffAccounts).where(eq(staffAccounts.userId, id));
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ providerId: 'credential', accountId: id, userId: id });
    expect(accounts[0]!.password).not.toContain(PASSWORD);
    expect(await verifyPassword({ hash: accounts[0]!.password!, password: PASSWORD })).toBe(true);
    expect(await verifyPassword({ hash: accounts[0]!.password!, password: 'wrong horse battery staple' })).toBe(false);

    const entries = (await auditRows()).filter((e) => e.targetId === id);
    expect(entries).toEqual([
      expect.objectContaining({
        actorId: actor,
        action: 'staff.created',
        targetType: 'staff',
        targetId: id,
        details: { role: 'operator' },
      }),
    ]);
    expect(await findStaffIdByEmail('OLIVIA.OP@example.com ')).toBe(id);
  });

  it('records a null actor for accounts created from the command line', async () => {
    const id = await add('Cli', 'viewer');
    expect(await auditRows()).toEqual([
      expect.objectContaining({ actorId: null, action: 'staff.created', targetId: id, details: { role: 'viewer' } }),
    ]);
  });

  it('refuses a second account with the same e-mail in any case, and writes nothing', async () => {
    await createStaff(null, { name: 'First', email: 'same@example.com', role: 'viewer' });
    const before = await counts();

    const error = await createStaff(null, { name: 'Second', email: ' SAME@Example.com', role: 'admin', password: PASSWORD }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StaffError);
    expect((error as StaffError).field).toBe('email');

    expect(await counts()).toEqual(before);
    expect(await countStaff()).toBe(1);
  });

  it('creates exactly one account when the same e-mail is submitted twice at once', async () => {
    const results = await Promise.allSettled(
      ['Twin One', 'Twin Two'].map((name) => createStaff(null, { name, email: 'twin@example.com', role: 'viewer', password: PASSWORD })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]!.reason).toBeInstanceOf(StaffError);
    expect(await counts()).toEqual({ users: 1, accounts: 1, audit: 1 });
  });

  it('writes neither the account nor its password when the audit entry cannot be written', async () => {
    const restore = await breakAuditTable();
    try {
      await expectAuditRefused(add('Ghost', 'admin', null, { withPassword: true }));
    } finally {
      await restore();
    }
    expect(await counts()).toEqual({ users: 0, accounts: 0, audit: 0 });
    expect(await findStaffIdByEmail('ghost@example.com')).toBeNull();
  });
});

describe('changeStaffRole', () => {
  it('changes the role and audits from and to', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Vera', 'viewer', admin);

    await changeStaffRole(admin, id, 'operator');

    expect((await userRow(id))!.role).toBe('operator');
    const entries = (await auditRows()).filter((e) => e.action === 'staff.role_changed');
    expect(entries).toEqual([
      expect.objectContaining({ actorId: admin, targetType: 'staff', targetId: id, details: { from: 'viewer', to: 'operator' } }),
    ]);
  });

  it('does nothing, and audits nothing, when the role is unchanged', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Vera', 'viewer', admin);
    const before = await counts();
    await changeStaffRole(admin, id, 'viewer');
    expect(await counts()).toEqual(before);
  });

  it('refuses an account that does not exist', async () => {
    const admin = await add('Root', 'admin');
    await expect(changeStaffRole(admin, randomUUID(), 'viewer')).rejects.toBeInstanceOf(StaffError);
  });

  it('refuses to demote the last active administrator, and allows it once there is another', async () => {
    const root = await add('Root', 'admin');
    for (const role of ['operator', 'viewer'] as const) {
      const error = await changeStaffRole(root, root, role).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StaffError);
      expect((error as StaffError).field).toBe('role');
    }
    expect((await userRow(root))!.role).toBe('admin');
    expect((await auditRows()).some((e) => e.action === 'staff.role_changed')).toBe(false);

    const second = await add('Second', 'operator', root);
    await changeStaffRole(root, second, 'admin');
    await changeStaffRole(second, root, 'viewer');
    expect((await userRow(root))!.role).toBe('viewer');
    // Now `second` is the last one.
    await expect(changeStaffRole(second, second, 'operator')).rejects.toBeInstanceOf(StaffError);
  });

  it('does not count a disabled administrator as another administrator', async () => {
    const root = await add('Root', 'admin');
    const other = await add('Other', 'admin', root);
    await disableStaff(root, other);
    await expect(changeStaffRole(root, root, 'viewer')).rejects.toBeInstanceOf(StaffError);
    expect((await userRow(root))!.role).toBe('admin');
  });

  it('leaves one administrator when two demote each other at the same time', async () => {
    const a = await add('Anna', 'admin');
    const b = await add('Bert', 'admin', a);
    const results = await Promise.allSettled([changeStaffRole(a, b, 'viewer'), changeStaffRole(b, a, 'viewer')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const roles = [(await userRow(a))!.role, (await userRow(b))!.role].sort();
    expect(roles).toEqual(['admin', 'viewer']);
  });

  it('keeps the old role when the audit entry cannot be written', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Vera', 'viewer', admin);
    const restore = await breakAuditTable();
    try {
      await expectAuditRefused(changeStaffRole(admin, id, 'admin'));
    } finally {
      await restore();
    }
    expect((await userRow(id))!.role).toBe('viewer');
  });
});

describe('disableStaff', () => {
  it('disables the account, ends all its sessions (and no one else’s), and audits', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Olga', 'operator', admin);
    await insertSession(id);
    await insertSession(id);
    const adminSession = await insertSession(admin);

    await disableStaff(admin, id);

    expect((await userRow(id))!.disabled).toBe(true);
    const sessions = await (await db()).select().from(staffSessions);
    expect(sessions.map((s) => s.id)).toEqual([adminSession]);
    const entries = (await auditRows()).filter((e) => e.action === 'staff.disabled');
    expect(entries).toEqual([expect.objectContaining({ actorId: admin, targetType: 'staff', targetId: id, details: null })]);
  });

  it('keeps the account row (the audit trail refers to it) and its credential', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Olga', 'operator', admin, { withPassword: true });
    await disableStaff(admin, id);
    expect(await countStaff()).toBe(2);
    expect(await (await db()).select().from(staffAccounts).where(eq(staffAccounts.userId, id))).toHaveLength(1);
  });

  it('is a no-op for an account that is already disabled', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Olga', 'operator', admin);
    await disableStaff(admin, id);
    const before = await counts();
    await disableStaff(admin, id);
    expect(await counts()).toEqual(before);
  });

  it('refuses to disable your own account, and changes nothing', async () => {
    const admin = await add('Root', 'admin');
    await add('Other', 'admin', admin);
    const session = await insertSession(admin);
    const before = await counts();

    await expect(disableStaff(admin, admin)).rejects.toBeInstanceOf(StaffError);

    expect((await userRow(admin))!.disabled).toBe(false);
    expect(await (await db()).select().from(staffSessions).where(eq(staffSessions.id, session))).toHaveLength(1);
    expect(await counts()).toEqual(before);
  });

  it('refuses to disable the last active administrator, and allows it once there is another', async () => {
    const root = await add('Root', 'admin');
    const session = await insertSession(root);
    // The command line acts without an actor, so "not yourself" does not protect here.
    await expect(disableStaff(null, root)).rejects.toBeInstanceOf(StaffError);
    expect((await userRow(root))!.disabled).toBe(false);
    expect(await (await db()).select().from(staffSessions).where(eq(staffSessions.id, session))).toHaveLength(1);

    const second = await add('Second', 'admin', root);
    await disableStaff(second, root);
    expect((await userRow(root))!.disabled).toBe(true);
  });

  it('refuses an account that does not exist', async () => {
    const admin = await add('Root', 'admin');
    await expect(disableStaff(admin, randomUUID())).rejects.toBeInstanceOf(StaffError);
  });

  it('keeps the account enabled and its sessions when the audit entry cannot be written', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Olga', 'operator', admin);
    await insertSession(id);
    const restore = await breakAuditTable();
    try {
      await expectAuditRefused(disableStaff(admin, id));
    } finally {
      await restore();
    }
    expect((await userRow(id))!.disabled).toBe(false);
    expect(await (await db()).select().from(staffSessions).where(eq(staffSessions.userId, id))).toHaveLength(1);
  });
});

describe('listStaff', () => {
  it('lists enabled accounts by name, then disabled ones by name, without password material', async () => {
    const root = await add('Mallory', 'admin');
    const zed = await add('Zed', 'viewer', root);
    await add('Carol', 'operator', root, { withPassword: true });
    const aaron = await add('Aaron', 'viewer', root);
    await add('Bob', 'viewer', root);
    await disableStaff(root, zed);
    await disableStaff(root, aaron);

    const list = await listStaff();
    expect(list.map((s) => [s.name, s.disabled])).toEqual([
      ['Bob', false],
      ['Carol', false],
      ['Mallory', false],
      ['Aaron', true],
      ['Zed', true],
    ]);
    for (const s of list)
      expect(Object.keys(s).sort()).toEqual(['createdAt', 'disabled', 'email', 'id', 'name', 'role', 'twoFactorEnabled']);
    expect(list.find((s) => s.name === 'Carol')).toMatchObject({ email: 'carol@example.com', role: 'operator' });
  });

  it('is empty without accounts', async () => {
    expect(await listStaff()).toEqual([]);
    expect(await countStaff()).toBe(0);
  });
});

describe('enableStaff', () => {
  it('lets a disabled account sign in again, audited as staff.enabled, and brings back none of its sessions', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Olga', 'operator', admin, { withPassword: true });
    await insertSession(id);
    await disableStaff(admin, id);

    await enableStaff(admin, id);

    expect((await userRow(id))!.disabled).toBe(false);
    expect(await (await db()).select().from(staffSessions).where(eq(staffSessions.userId, id))).toHaveLength(0);
    const entries = (await auditRows()).filter((entry) => entry.targetId === id);
    expect(entries.map((entry) => [entry.action, entry.actorId])).toContainEqual(['staff.enabled', admin]);
    // A real sign-in with the account's password works again.
    const auth = await getCliAuth();
    const signedIn = await auth.api.signInEmail({ body: { email: 'olga@example.com', password: PASSWORD }, asResponse: true });
    expect(signedIn.status).toBe(200);
  });

  it('changes nothing and records nothing for an account that is enabled already', async () => {
    const admin = await add('Root', 'admin');
    const id = await add('Olga', 'operator', admin);
    const before = await counts();
    await enableStaff(admin, id);
    expect(await counts()).toEqual(before);
  });

  it('refuses an account that does not exist', async () => {
    const admin = await add('Root', 'admin');
    await expect(enableStaff(admin, randomUUID())).rejects.toBeInstanceOf(StaffError);
  });
});

describe('password rules on every new account', () => {
  it('refuses a common password on the password field, and writes nothing', async () => {
    const before = await counts();
    const error = await createStaff(null, { name: 'Weak', email: 'weak@example.com', role: 'viewer', password: 'qwerty123456' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StaffError);
    expect((error as StaffError).field).toBe('password');
    expect((error as StaffError).message).toContain('one of the most common ones');
    expect(await counts()).toEqual(before);
  });
});
