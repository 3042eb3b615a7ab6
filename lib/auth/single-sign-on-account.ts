// What a provider identity changes about a staff account, as better-auth's account hooks: an
// account holds at most one identity (the gate in single-sign-on.ts refuses a second one with a
// reason; this refuses one that reaches the database anyway), and once single sign-on has
// linked an account or signed it in, none of its invitations still works (a password set
// through one would bypass the provider's MFA and outlive the company's offboarding).
import 'server-only';
import type { Db } from '@/lib/db';
import { voidInvitations } from '@/lib/staff/invitations';
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
