// Invitations: how a new colleague gets their first password without anybody else ever seeing
// it. An administrator (or the CLI) issues a one-time link that works for INVITATION_LIFETIME_HOURS;
// the colleague opens it and sets their own password, which creates their credential account.
// Only the token's SHA-256 is stored. Every decision (expired? used? voided?) is taken by the
// database with its own clock, so any instance answers any link the same way. A colleague who
// signs in with the company's single sign-on gets no invitation and cannot use an old one: a
// password beside it would bypass the provider's MFA and outlive the company's offboarding.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from 'better-auth/crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { SSO_PROVIDER_ID } from '@/lib/auth/single-sign-on';
import { type Db, getDb } from '@/lib/db';
import { staffAccounts, staffInvitations, staffUsers } from '@/lib/db/schema';
import { createStaffIn, type NewStaff, StaffError } from '../staff-accounts';

/** Long enough to reach someone over a weekend; short enough that a forgotten link closes. */
export const INVITATION_LIFETIME_HOURS = 48;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** 32 random bytes in base64url: always 43 characters of this alphabet. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export type IssuedInvitation = { token: string; expiresAt: Date };

/** What a link leads to, as its page shows it. */
export type InvitationLookup =
  | { state: 'valid'; userId: string; name: string; email: string; expiresAt: Date }
  | { state: 'expired'; expiresAt: Date }
  | { state: 'used' }
  | { state: 'disabled' }
  /** The account signs in with the company's single sign-on: no password is set beside it. */
  | { state: 'single_sign_on' }
  /** Never issued, voided by a newer one, or not a token at all: one answer for all. */
  | { state: 'unknown' };

export class InvitationError extends Error {
  constructor(
    readonly lookup: Exclude<InvitationLookup, { state: 'valid' }>,
    /** The account the link was for, when known: for the audit trail, never for the page. */
    readonly userId?: string,
  ) {
    super(`invitation ${lookup.state}`);
    this.name = 'InvitationError';
  }
}

const SIGNS_IN_WITH_SINGLE_SIGN_ON =
  'This colleague signs in with the company’s single sign-on, so no invitation is issued: a password would bypass the provider’s checks.';

/** Why an invitation was refused, in the audit trail: an id and codes, nothing personal. */
const refusedEvent = (actorId: string | null, userId: string, step: 'issue' | 'accept') => ({
  actorId,
  action: 'invitation.refused' as const,
  target: { type: 'staff' as const, id: userId },
  details: { reason: 'single_sign_on', step },
});

async function hasPassword(tx: Pick<Db, 'select'>, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: staffAccounts.id })
    .from(staffAccounts)
    .where(and(eq(staffAccounts.userId, userId), eq(staffAccounts.providerId, 'credential')))
    .limit(1);
  return !!row;
}

/**
 * Whether a provider identity is linked to the account (better-auth's account row for our
 * provider). Spelled out: in a sub-select drizzle leaves columns unqualified, and `id` would be the account's.
 */
const singleSignOnLinked = sql<boolean>`exists (select 1 from staff_accounts sso where sso.user_id = staff_users.id and sso.provider_id = ${SSO_PROVIDER_ID})`;

async function hasSingleSignOn(tx: Pick<Db, 'select'>, userId: string): Promise<boolean> {
  const [row] = await tx.select({ linked: singleSignOnLinked }).from(staffUsers).where(eq(staffUsers.id, userId));
  return row?.linked === true;
}

/** Refused because the account signs in with single sign-on: audited by whoever ends the transaction. */
class SingleSignOnAccountError extends StaffError {
  constructor(readonly userId: string) {
    super(SIGNS_IN_WITH_SINGLE_SIGN_ON);
  }
}

/**
 * A new link for an account that has no password yet, inside `tx`: the account's unused older
 * links stop working. The account's row is locked, so two administrators issuing at once (on
 * two instances, say) are taken one after the other and only the later link works.
 */
export async function issueInvitationIn(tx: Tx, actorId: string | null, userId: string): Promise<IssuedInvitation> {
  const [user] = await tx.select({ disabled: staffUsers.disabled }).from(staffUsers).where(eq(staffUsers.id, userId)).for('update');
  if (!user) throw new StaffError('That account does not exist.');
  if (user.disabled) throw new StaffError('This account is disabled; an invitation would not let them in.');
  if (await hasSingleSignOn(tx, userId)) throw new SingleSignOnAccountError(userId);
  if (await hasPassword(tx, userId)) throw new StaffError('They have set a password already; they sign in with it.');
  await tx.delete(staffInvitations).where(and(eq(staffInvitations.userId, userId), isNull(staffInvitations.usedAt)));
  const token = randomBytes(32).toString('base64url');
  const [row] = await tx
    .insert(staffInvitations)
    .values({
      userId,
      tokenHash: hashOf(token),
      issuedBy: actorId,
      expiresAt: sql`now() + make_interval(hours => ${INVITATION_LIFETIME_HOURS})`,
    })
    .returning({ expiresAt: staffInvitations.expiresAt });
  await recordAudit({ actorId, action: 'invitation.issued', target: { type: 'staff', id: userId } }, tx);
  return { token, expiresAt: row!.expiresAt };
}

export async function issueInvitation(actorId: string | null, userId: string): Promise<IssuedInvitation> {
  const db = await getDb();
  try {
    return await db.transaction((tx) => issueInvitationIn(tx, actorId, userId));
  } catch (error) {
    // The transaction is rolled back: the refusal is recorded on its own.
    if (error instanceof SingleSignOnAccountError) await recordAudit(refusedEvent(actorId, error.userId, 'issue'));
    throw error;
  }
}

/** Creates an account without a password and its first invitation, in one transaction. */
export async function inviteStaff(
  actorId: string | null,
  staff: Omit<NewStaff, 'password'>,
): Promise<IssuedInvitation & { userId: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const userId = await createStaffIn(tx, actorId, staff);
    return { userId, ...(await issueInvitationIn(tx, actorId, userId)) };
  });
}

/** What the link leads to, and the account it was for (kept off the page's answer). */
async function lookupIn(executor: Pick<Db, 'select'>, token: string): Promise<InvitationLookup & { forUser?: string }> {
  // Anything that cannot be a token (too long, odd characters) is not looked up at all.
  if (!TOKEN_SHAPE.test(token)) return { state: 'unknown' };
  const [row] = await executor
    .select({
      userId: staffInvitations.userId,
      expiresAt: staffInvitations.expiresAt,
      usedAt: staffInvitations.usedAt,
      expired: sql<boolean>`${staffInvitations.expiresAt} <= now()`,
      name: staffUsers.name,
      email: staffUsers.email,
      disabled: staffUsers.disabled,
      singleSignOn: singleSignOnLinked,
    })
    .from(staffInvitations)
    .innerJoin(staffUsers, eq(staffUsers.id, staffInvitations.userId))
    .where(eq(staffInvitations.tokenHash, hashOf(token)));
  if (!row) return { state: 'unknown' };
  if (row.usedAt) return { state: 'used' };
  if (row.disabled) return { state: 'disabled' };
  // Before expiry: voiding (voidInvitations, lib/auth/single-sign-on-account.ts) ends a link by
  // moving its end to that moment.
  if (row.singleSignOn) return { state: 'single_sign_on', forUser: row.userId };
  if (row.expired) return { state: 'expired', expiresAt: row.expiresAt };
  return { state: 'valid', userId: row.userId, name: row.name, email: row.email, expiresAt: row.expiresAt };
}

/** What the link with this token leads to now. */
export async function lookupInvitation(token: string): Promise<InvitationLookup> {
  const { forUser: _, ...lookup } = await lookupIn(await getDb(), token);
  return lookup;
}

/**
 * Sets the invited colleague's password and uses the link up, in one transaction with the
 * audit entry. Of two uses at once, the conditional update lets exactly one through; the other
 * gets `used`. Throws InvitationError when the link does not (or no longer) work.
 */
export async function acceptInvitation(token: string, password: string): Promise<{ userId: string; email: string }> {
  try {
    return await claimInvitation(token, password);
  } catch (error) {
    // Whoever holds the link is not known: no actor. The transaction, if any, is rolled back.
    if (error instanceof InvitationError && error.lookup.state === 'single_sign_on' && error.userId) {
      await recordAudit(refusedEvent(null, error.userId, 'accept'));
    }
    throw error;
  }
}

async function claimInvitation(token: string, password: string): Promise<{ userId: string; email: string }> {
  const { forUser, ...before } = await lookupIn(await getDb(), token);
  if (before.state !== 'valid') throw new InvitationError(before, forUser);
  // Hashing is slow on purpose: done before the transaction, so no row stays locked meanwhile.
  const passwordHash = await hashPassword(password);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(staffInvitations)
      .set({ usedAt: sql`now()` })
      .where(
        and(eq(staffInvitations.tokenHash, hashOf(token)), isNull(staffInvitations.usedAt), sql`${staffInvitations.expiresAt} > now()`),
      )
      .returning({ userId: staffInvitations.userId });
    if (!claimed) {
      const { forUser: userId, ...now } = await lookupIn(tx, token);
      throw new InvitationError(now.state === 'valid' ? { state: 'used' } : now, userId);
    }
    // Locked, so a disable running at this moment either comes first (and this refuses) or after.
    const [user] = await tx
      .select({ email: staffUsers.email, disabled: staffUsers.disabled })
      .from(staffUsers)
      .where(eq(staffUsers.id, claimed.userId))
      .for('update');
    if (!user || user.disabled) throw new InvitationError({ state: 'disabled' });
    // Single sign-on may have linked the account since the look-up above, while the password was hashed.
    if (await hasSingleSignOn(tx, claimed.userId)) throw new InvitationError({ state: 'single_sign_on' }, claimed.userId);
    if (await hasPassword(tx, claimed.userId)) throw new InvitationError({ state: 'used' });
    const now = new Date();
    await tx.insert(staffAccounts).values({
      id: crypto.randomUUID(),
      accountId: claimed.userId,
      providerId: 'credential',
      userId: claimed.userId,
      password: passwordHash,
      createdAt: now,
      updatedAt: now,
    });
    await recordAudit({ actorId: claimed.userId, action: 'invitation.used', target: { type: 'staff', id: claimed.userId } }, tx);
    return { userId: claimed.userId, email: user.email };
  });
}

/** What the staff list shows for an account whose latest link is unused. */
export type PendingInvitation = { expiresAt: Date; expired: boolean };

/** The unused invitation of each of these accounts that has one (at most one each: a newer one deletes the older). */
export async function pendingInvitations(userIds: string[]): Promise<Map<string, PendingInvitation>> {
  if (userIds.length === 0) return new Map();
  const db = await getDb();
  const rows = await db
    .select({
      userId: staffInvitations.userId,
      expiresAt: staffInvitations.expiresAt,
      expired: sql<boolean>`${staffInvitations.expiresAt} <= now()`,
    })
    .from(staffInvitations)
    .where(and(inArray(staffInvitations.userId, userIds), isNull(staffInvitations.usedAt)))
    .orderBy(desc(staffInvitations.createdAt));
  const pending = new Map<string, PendingInvitation>();
  for (const row of rows) if (!pending.has(row.userId)) pending.set(row.userId, { expiresAt: row.expiresAt, expired: row.expired });
  return pending;
}

/** The accounts among these that have an account row of `providerId` (a password, or a provider identity). */
async function accountsWithProvider(userIds: string[], providerId: string): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const db = await getDb();
  const rows = await db
    .selectDistinct({ userId: staffAccounts.userId })
    .from(staffAccounts)
    .where(and(inArray(staffAccounts.userId, userIds), eq(staffAccounts.providerId, providerId)));
  return new Set(rows.map((row) => row.userId));
}

/** The accounts among these that a provider identity is linked to (they get no invitation). */
export const accountsWithSingleSignOn = (userIds: string[]) => accountsWithProvider(userIds, SSO_PROVIDER_ID);

/** The accounts among these that have a password (the others may be sent a new invitation). */
export const accountsWithPassword = (userIds: string[]) => accountsWithProvider(userIds, 'credential');
