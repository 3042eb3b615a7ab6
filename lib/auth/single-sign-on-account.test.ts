// What a provider identity does to a staff account, through real better-auth on an in-memory
// PGlite: its account hooks refuse a second identity that reaches the database past the gate
// (two links at once), and a link or a sign-in through the provider voids unused invitations.
// The gate's own refusal of a second identity is the one the browser meets (single-sign-on.ts);
// e2e/single-sign-on.spec.ts proves both with a real provider.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, staffAccounts, staffUsers } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { inviteStaff, lookupInvitation } from '@/lib/staff/invitations/invitations.server';
import { getCliAuth } from './auth';
import { OTHER_IDENTITY_ERROR, SSO_PROVIDER_ID, singleSignOnGate } from './single-sign-on';

const identities = async (userId: string) =>
  (await getDb())
    .select({ accountId: staffAccounts.accountId })
    .from(staffAccounts)
    .where(and(eq(staffAccounts.userId, userId), eq(staffAccounts.providerId, SSO_PROVIDER_ID)));

const auditOf = async (action: string) => (await getDb()).select().from(auditEntries).where(eq(auditEntries.action, action));

async function invited() {
  return inviteStaff(null, { name: 'Ines', email: 'ines@example.com', role: 'operator' });
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-single-sign-on-account-tests';
  resetEnv();
  await getDb();
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(staffUsers);
  await db.delete(auditEntries);
});

afterAll(async () => {
  await closeDatabases();
});

describe('account hooks', () => {
  it('link one identity, void the unused invitation, and refuse a second identity for the same account', async () => {
    const { userId, token } = await invited();
    const { internalAdapter } = await (await getCliAuth()).$context;

    expect(await internalAdapter.linkAccount({ providerId: SSO_PROVIDER_ID, accountId: 'subject-one', userId })).toMatchObject({ userId });
    expect(await lookupInvitation(token)).toEqual({ state: 'single_sign_on' });
    expect(await auditOf('invitation.voided')).toMatchObject([
      { actorId: userId, targetId: userId, details: { reason: 'single_sign_on' } },
    ]);

    expect(await internalAdapter.linkAccount({ providerId: SSO_PROVIDER_ID, accountId: 'subject-two', userId })).toBeNull();
    expect(await identities(userId)).toEqual([{ accountId: 'subject-one' }]);
  });

  it('void an invitation issued beside an identity at the next sign-in through the provider (its tokens refreshed)', async () => {
    const { userId, token } = await invited();
    const db = await getDb();
    const now = new Date();
    // Linked before invitations were refused for such accounts: the row is written directly.
    const id = crypto.randomUUID();
    await db
      .insert(staffAccounts)
      .values({ id, accountId: 'subject-one', providerId: SSO_PROVIDER_ID, userId, createdAt: now, updatedAt: now });
    const { internalAdapter } = await (await getCliAuth()).$context;
    await internalAdapter.updateAccount(id, { idToken: 'a fresh id token' });
    expect(await auditOf('invitation.voided')).toHaveLength(1);
    expect(await lookupInvitation(token)).toEqual({ state: 'single_sign_on' });
  });
});

describe('singleSignOnGate', () => {
  it('refuses to link a second identity to an account that has one, and audits it by id only', async () => {
    const { userId } = await invited();
    const gate = singleSignOnGate(await getDb());
    const link = { method: 'oauth', action: 'link-account', oauth: { providerId: SSO_PROVIDER_ID } };
    expect(await gate({ user: { id: userId, email: 'ines@example.com' }, source: link })).toBeUndefined();
    const now = new Date();
    await (await getDb())
      .insert(staffAccounts)
      .values({ id: crypto.randomUUID(), accountId: 'subject-one', providerId: SSO_PROVIDER_ID, userId, createdAt: now, updatedAt: now });
    expect(await gate({ user: { id: userId, email: 'INES@Example.COM' }, source: link })).toMatchObject({ error: OTHER_IDENTITY_ERROR });
    // Signing in with the identity already linked is not a link: let through.
    expect(await gate({ user: { id: userId }, source: { ...link, action: 'sign-in' } })).toBeUndefined();
    const refused = await auditOf('sso.refused');
    expect(refused).toMatchObject([{ actorId: null, targetId: userId, details: { reason: 'other_identity' } }]);
    expect(JSON.stringify(refused)).not.toMatch(/ines|example/i);
  });
});
