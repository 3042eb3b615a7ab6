// What a provider identity changes about a staff account, as better-auth's account hooks: an
// account holds at most one identity (the gate in single-sign-on.ts refuses a second one with a
// reason; this refuses one that reaches the database anyway), and once single sign-on has
// linked an account or signed it in, none of its invitations still works (a password set
// through one would bypass the provider's MFA and outlive the company's offboarding).
import 'server-only';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { type Db, getDb } from '@/lib/db';
import { staffInvitations } from '@/lib/db/schema';
import { hasLinkedIdentity, SSO_PROVIDER_ID } from './single-sign-on';

type AccountRow = { providerId: string; userId: string };

export function singleSignOnAccountHooks(db: Db) {
  const voidFor = async (account: AccountRow | null) => {
    if (account?.providerId === SSO_PROVIDER_ID) await voidInvitations(account.userId);
  };
  return {
    create: {
      before: async (account: AccountRow) =>
        account.providerId === SSO_PROVIDER_ID && (await hasLinkedIdentity(db, account.userId)) ? false : undefined,
      // A link: the account's unused invitations stop working.
      after: voidFor,
    },
    // Every sign-in through the provider refreshes the identity's tokens, so an invitation that
    // outlived the link by any route stops working at the next sign-in.
    update: { after: voidFor },
  };
}

/**
 * Ends the account's unused links now, once single sign-on has linked it or signed it in. The
 * rows stay, so an old link can still say why it stopped working; audited when any was live.
 */
export async function voidInvitations(userId: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const voided = await tx
      .update(staffInvitations)
      .set({ expiresAt: sql`now()` })
      .where(and(eq(staffInvitations.userId, userId), isNull(staffInvitations.usedAt), sql`${staffInvitations.expiresAt} > now()`))
      .returning({ id: staffInvitations.id });
    if (voided.length === 0) return;
    // The colleague's own sign-in through the provider is what voided them.
    await recordAudit(
      { actorId: userId, action: 'invitation.voided', target: { type: 'staff', id: userId }, details: { reason: 'single_sign_on' } },
      tx,
    );
  });
}
