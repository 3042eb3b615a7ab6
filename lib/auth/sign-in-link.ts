// The break-glass way in: a one-time sign-in link for an administrator, issued on the server's
// terminal (`npm run users -- sign-in-link <email>`) for when the company's sign-in provider is
// down or password sign-in is turned off. The link is valid for 15 minutes and signs its
// administrator in once. Only a SHA-256 hash of its token is stored (better-auth's verification
// table, so every instance sees it); a 256-bit random token cannot be guessed, so looking its
// hash up needs no constant-time comparison. A used link stays on record for a day, so opening
// it again says "used" rather than "not valid". An administrator has at most one unused link: a
// new one voids the earlier, so a link that leaked (a terminal's scrollback, a shared screen) stops
// working as soon as the operator asks for another.
import 'server-only';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, like } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import type { Db } from '@/lib/db';
import { authVerifications, staffUsers } from '@/lib/db/schema';

export const SIGN_IN_LINK_MINUTES = 15;
const USED_LINK_KEPT_HOURS = 24;

const UNUSED = 'sign-in-link:';
const USED = 'sign-in-link-used:';

/** Why no link could be issued, in words for the terminal. */
export class SignInLinkRefusedError extends Error {
  override name = 'SignInLinkRefusedError';
}

export type SignInLinkState = 'valid' | 'used' | 'expired' | 'invalid';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token is 32 random bytes in base64url: anything else is not one and costs no query. */
export const looksLikeToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/**
 * Issues a link's token for the administrator with this e-mail address, voiding their earlier unused
 * link; audited as sign_in_link.issued.
 */
export async function issueSignInLink(
  db: Db,
  email: string,
  now = new Date(),
): Promise<{ token: string; userId: string; expiresAt: Date }> {
  const [staff] = await db
    .select({ id: staffUsers.id, role: staffUsers.role, disabled: staffUsers.disabled })
    .from(staffUsers)
    .where(eq(staffUsers.email, email.trim().toLowerCase()));
  if (!staff) throw new SignInLinkRefusedError(`No staff account has the e-mail address ${email}.`);
  if (staff.role !== 'admin') {
    throw new SignInLinkRefusedError(
      `${email} is not an administrator: sign-in links are only for administrators (the break-glass way in).`,
    );
  }
  if (staff.disabled) throw new SignInLinkRefusedError(`The account of ${email} is disabled: enable it first.`);

  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000);
  await db.transaction(async (tx) => {
    // Locks the account's row: of two links issued at the same moment, the later voids the earlier.
    await tx.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, staff.id)).for('update');
    await tx.delete(authVerifications).where(and(like(authVerifications.identifier, `${UNUSED}%`), eq(authVerifications.value, staff.id)));
    await tx
      .insert(authVerifications)
      .values({ id: randomUUID(), identifier: `${UNUSED}${hashOf(token)}`, value: staff.id, expiresAt, createdAt: now, updatedAt: now });
    await recordAudit({ actorId: null, action: 'sign_in_link.issued', target: { type: 'staff', id: staff.id } }, tx);
  });
  return { token, userId: staff.id, expiresAt };
}

/** What opening the link would do, without using it (the page that asks "sign in?"). */
export async function signInLinkState(db: Db, token: string, now = new Date()): Promise<SignInLinkState> {
  if (!looksLikeToken(token)) return 'invalid';
  const hash = hashOf(token);
  const rows = await db
    .select({ identifier: authVerifications.identifier, expiresAt: authVerifications.expiresAt })
    .from(authVerifications)
    .where(inArray(authVerifications.identifier, [`${UNUSED}${hash}`, `${USED}${hash}`]));
  const row = rows[0];
  if (!row) return 'invalid';
  if (row.identifier.startsWith(USED)) return 'used';
  return row.expiresAt > now ? 'valid' : 'expired';
}

/**
 * Uses the link: one atomic UPDATE marks it used, so of two instances racing for the same link
 * exactly one gets the account. Returns the administrator's id, or why the link does not work.
 */
export async function useSignInLink(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ userId: string } | { refused: Exclude<SignInLinkState, 'valid'> }> {
  if (!looksLikeToken(token)) return { refused: 'invalid' };
  const hash = hashOf(token);
  const [used] = await db
    .update(authVerifications)
    .set({ identifier: `${USED}${hash}`, expiresAt: new Date(now.getTime() + USED_LINK_KEPT_HOURS * 3_600_000), updatedAt: now })
    .where(and(eq(authVerifications.identifier, `${UNUSED}${hash}`), gt(authVerifications.expiresAt, now)))
    .returning({ userId: authVerifications.value });
  if (used) return { userId: used.userId };
  const state = await signInLinkState(db, token, now);
  return { refused: state === 'valid' ? 'invalid' : state };
}
