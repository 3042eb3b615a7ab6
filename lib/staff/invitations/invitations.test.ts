// Invitations against a real database (in-memory PGlite, and a real PostgreSQL in the postgres
// project): what issuing stores, that a newer link voids the older, that a link works once even
// when used twice at the same moment, expiry by the database's clock, every refusal, and that
// an account with a single sign-on identity gets no invitation and cannot use an old one.
import { createHash } from 'node:crypto';
import { verifyPassword } from 'better-auth/crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { voidInvitations } from '@/lib/auth/single-sign-on-account';
import { getDb } from '@/lib/db';
import { auditEntries, staffAccounts, staffInvitations, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff, disableStaff, StaffError } from '../staff-accounts';
import {
  acceptInvitation,
  accountsWithPassword,
  accountsWithSingleSignOn,
  INVITATION_LIFETIME_HOURS,
  InvitationError,
  inviteStaff,
  issueInvitation,
  lookupInvitation,
  pendingInvitations,
} from './invitations.server';

const PASSWORD = 'a long and quiet harbour';
const db = () => getDb();

async function invite(name: string, actorId: string | null = null) {
  return inviteStaff(actorId, { name, email: `${name.toLowerCase()}@example.com`, role: 'operator' });
}

async function credentialOf(userId: string) {
  return (await db())
    .select()
    .from(staffAccounts)
    .where(and(eq(staffAccounts.userId, userId), eq(staffAccounts.providerId, 'credential')));
}

/** What better-auth writes when it links a provider identity (the provider's `sub` as accountId). */
async function linkSingleSignOn(userId: string, subject = 'provider-subject-1') {
  const now = new Date();
  await (await db())
    .insert(staffAccounts)
    .values({ id: crypto.randomUUID(), accountId: subject, providerId: 'oidc', userId, createdAt: now, updatedAt: now });
}

async function auditOf(action: string) {
  return (await db()).select().from(auditEntries).where(eq(auditEntries.action, action)).orderBy(asc(auditEntries.at));
}

/** Moves every invitation of the account into the past, as time passing would. */
async function expireInvitationsOf(userId: string) {
  await (await db())
    .update(staffInvitations)
    .set({ expiresAt: sql`now() - interval '1 minute'` })
    .where(eq(staffInvitations.userId, userId));
}

async function refusalOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvitationError);
  return (error as InvitationError).lookup.state;
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  await getDb();
});

beforeEach(async () => {
  const d = await db();
  await d.delete(staffUsers); // invitations and accounts go with their users
  await d.delete(auditEntries);
});

afterAll(async () => {
  await closeDatabases();
});

describe('inviteStaff', () => {
  it('creates the account without a password and a 48-hour link whose token is stored only as its SHA-256', async () => {
    const admin = await createStaff(null, { name: 'Root', email: 'root@example.com', role: 'admin', password: PASSWORD });
    const before = Date.now();
    const { userId, token, expiresAt } = await invite('Ines', admin);

    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await credentialOf(userId)).toHaveLength(0);
    const rows = await (await db()).select().from(staffInvitations).where(eq(staffInvitations.userId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]).toMatchObject({ issuedBy: admin, usedAt: null });
    const hours = (expiresAt.getTime() - before) / 3_600_000;
    expect(hours).toBeGreaterThan(INVITATION_LIFETIME_HOURS - 0.1);
    expect(hours).toBeLessThan(INVITATION_LIFETIME_HOURS + 0.1);

    const issued = await auditOf('invitation.issued');
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ actorId: admin, targetType: 'staff', targetId: userId });
    expect(await auditOf('staff.created')).toHaveLength(2);
    expect(await lookupInvitation(token)).toMatchObject({ state: 'valid', userId, name: 'Ines', email: 'ines@example.com' });
  });

  it('creates nothing when the e-mail address is taken', async () => {
    await invite('Ines');
    await expect(invite('Ines')).rejects.toBeInstanceOf(StaffError);
    expect(await (await db()).select().from(staffInvitations)).toHaveLength(1);
  });
});

describe('issueInvitation', () => {
  it('voids the older link: only the newest works, and the staff list sees one pending invitation', async () => {
    const { userId, token: first } = await invite('Ines');
    const { token: second } = await issueInvitation(null, userId);

    expect(await lookupInvitation(first)).toEqual({ state: 'unknown' });
    expect(await refusalOf(acceptInvitation(first, PASSWORD))).toBe('unknown');
    expect(await lookupInvitation(second)).toMatchObject({ state: 'valid', userId });
    const pending = await pendingInvitations([userId]);
    expect(pending.get(userId)).toMatchObject({ expired: false });
    expect(await auditOf('invitation.issued')).toHaveLength(2);
  });

  it('gives an expired invitation a fresh link', async () => {
    const { userId, token: old } = await invite('Ines');
    await expireInvitationsOf(userId);
    expect((await pendingInvitations([userId])).get(userId)).toMatchObject({ expired: true });
    const { token } = await issueInvitation(null, userId);
    expect((await pendingInvitations([userId])).get(userId)).toMatchObject({ expired: false });
    expect(await lookupInvitation(old)).toEqual({ state: 'unknown' });
    await acceptInvitation(token, PASSWORD);
  });

  it('refuses an account that has a password, a disabled one and an unknown one', async () => {
    const withPassword = await createStaff(null, { name: 'Pat', email: 'pat@example.com', role: 'viewer', password: PASSWORD });
    await expect(issueInvitation(null, withPassword)).rejects.toThrow('They have set a password already');
    const admin = await createStaff(null, { name: 'Root', email: 'root@example.com', role: 'admin', password: PASSWORD });
    const { userId } = await invite('Ines');
    await disableStaff(admin, userId);
    await expect(issueInvitation(admin, userId)).rejects.toThrow('This account is disabled');
    await expect(issueInvitation(admin, 'no-such-account')).rejects.toThrow('That account does not exist.');
    expect(await auditOf('invitation.issued')).toHaveLength(1);
    expect(await accountsWithPassword([withPassword, userId, admin])).toEqual(new Set([withPassword, admin]));
  });
});

describe('acceptInvitation', () => {
  it('sets the password, uses the link up and audits it; the link then says it was used', async () => {
    const { userId, token } = await invite('Ines');
    expect(await acceptInvitation(token, PASSWORD)).toEqual({ userId, email: 'ines@example.com' });

    const accounts = await credentialOf(userId);
    expect(accounts).toHaveLength(1);
    expect(await verifyPassword({ hash: accounts[0]!.password!, password: PASSWORD })).toBe(true);
    const [row] = await (await db()).select().from(staffInvitations).where(eq(staffInvitations.userId, userId));
    expect(row!.usedAt).toBeInstanceOf(Date);
    const used = await auditOf('invitation.used');
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({ actorId: userId, targetType: 'staff', targetId: userId, details: null });

    expect(await lookupInvitation(token)).toEqual({ state: 'used' });
    expect(await refusalOf(acceptInvitation(token, 'another long passphrase'))).toBe('used');
    expect(await credentialOf(userId)).toHaveLength(1);
    expect((await pendingInvitations([userId])).size).toBe(0);
  });

  it('lets exactly one of two simultaneous uses through', async () => {
    const { userId, token } = await invite('Ines');
    const outcomes = await Promise.allSettled([acceptInvitation(token, PASSWORD), acceptInvitation(token, 'the other long passphrase')]);

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [lost] = outcomes.filter((o) => o.status === 'rejected');
    expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(InvitationError);
    expect(((lost as PromiseRejectedResult).reason as InvitationError).lookup.state).toBe('used');
    expect(await credentialOf(userId)).toHaveLength(1);
    expect(await auditOf('invitation.used')).toHaveLength(1);
  });

  it('refuses an expired link by the database clock, and names when it expired', async () => {
    const { userId, token } = await invite('Ines');
    await expireInvitationsOf(userId);
    const lookup = await lookupInvitation(token);
    expect(lookup.state).toBe('expired');
    expect(lookup.state === 'expired' && lookup.expiresAt.getTime()).toBeLessThan(Date.now());
    expect(await refusalOf(acceptInvitation(token, PASSWORD))).toBe('expired');
    expect(await credentialOf(userId)).toHaveLength(0);
    expect(await auditOf('invitation.used')).toHaveLength(0);
  });

  it("refuses a disabled account's link and writes nothing", async () => {
    const admin = await createStaff(null, { name: 'Root', email: 'root@example.com', role: 'admin', password: PASSWORD });
    const { userId, token } = await invite('Ines', admin);
    await disableStaff(admin, userId);
    expect(await lookupInvitation(token)).toEqual({ state: 'disabled' });
    expect(await refusalOf(acceptInvitation(token, PASSWORD))).toBe('disabled');
    expect(await credentialOf(userId)).toHaveLength(0);
  });

  it('answers any other token shape as unknown, without an error', async () => {
    await invite('Ines');
    const shapes = [
      '',
      'x',
      'a'.repeat(43),
      'a'.repeat(5000),
      "'; drop table staff_users; --",
      '\u0000'.repeat(43),
      'é'.repeat(43),
      '../../etc',
    ];
    for (const token of shapes) {
      expect(await lookupInvitation(token)).toEqual({ state: 'unknown' });
      expect(await refusalOf(acceptInvitation(token, PASSWORD))).toBe('unknown');
    }
  });
});

describe('an account that signs in with single sign-on', () => {
  it('is issued no invitation, and the refusal is audited without personal data', async () => {
    const admin = await createStaff(null, { name: 'Root', email: 'root@example.com', role: 'admin', password: PASSWORD });
    const { userId } = await invite('Ines', admin);
    await linkSingleSignOn(userId);
    await expect(issueInvitation(admin, userId)).rejects.toThrow(/signs in with the company’s single sign-on/);
    await expect(issueInvitation(admin, userId)).rejects.toBeInstanceOf(StaffError);
    expect(await auditOf('invitation.issued')).toHaveLength(1);
    const refused = await auditOf('invitation.refused');
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatchObject({ actorId: admin, targetId: userId, details: { reason: 'single_sign_on', step: 'issue' } });
    expect(JSON.stringify(refused)).not.toMatch(/ines|example/i);
  });

  it('refuses an old link: the page says why, nothing is written, and the refusal is audited', async () => {
    const { userId, token } = await invite('Ines');
    await linkSingleSignOn(userId);
    expect(await lookupInvitation(token)).toEqual({ state: 'single_sign_on' });
    expect(await refusalOf(acceptInvitation(token, PASSWORD))).toBe('single_sign_on');
    expect(await credentialOf(userId)).toHaveLength(0);
    expect(await auditOf('invitation.used')).toHaveLength(0);
    const refused = await auditOf('invitation.refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ actorId: null, targetId: userId, details: { reason: 'single_sign_on', step: 'accept' } });
  });

  it('refuses inside the transaction when the identity is linked while the password is being hashed', async () => {
    const { userId, token } = await invite('Ines');
    const accepting = acceptInvitation(token, PASSWORD);
    // Queued behind the use's own look-up, which therefore still found a usable link.
    expect(await lookupInvitation(token)).toMatchObject({ state: 'valid' });
    await linkSingleSignOn(userId);
    expect(await refusalOf(accepting)).toBe('single_sign_on');
    expect(await credentialOf(userId)).toHaveLength(0);
    const [row] = await (await db()).select().from(staffInvitations).where(eq(staffInvitations.userId, userId));
    expect(row!.usedAt).toBeNull();
    expect(await auditOf('invitation.refused')).toHaveLength(1);
  });

  it('voids the unused links when single sign-on links or signs the account in, once, with an audit entry', async () => {
    const { userId, token } = await invite('Ines');
    const other = await invite('Olga');
    await linkSingleSignOn(userId);
    await voidInvitations(userId);
    await voidInvitations(userId);
    const [row] = await (await db()).select().from(staffInvitations).where(eq(staffInvitations.userId, userId));
    expect(row!.usedAt).toBeNull();
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await lookupInvitation(token)).toEqual({ state: 'single_sign_on' });
    expect(await lookupInvitation(other.token)).toMatchObject({ state: 'valid' });
    const voided = await auditOf('invitation.voided');
    expect(voided).toHaveLength(1);
    expect(voided[0]).toMatchObject({ actorId: userId, targetId: userId, details: { reason: 'single_sign_on' } });
    expect(await accountsWithSingleSignOn([userId, other.userId])).toEqual(new Set([userId]));
  });
});
