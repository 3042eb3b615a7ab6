// Single sign-on through the company's OpenID Connect provider (better-auth's genericOAuth
// plugin): the authorization-code flow with PKCE (S256) and a nonce, the ID token verified
// against the provider's published keys. Only known staff get in: nobody is created, an
// account is linked only to the staff member whose e-mail address the provider has verified,
// and a disabled account is refused before anything is written. Once linked, an account keeps
// that one provider identity (its `sub`): another identity with the same address is refused.
// The role stays the one an administrator set here; the provider only says who someone is.
import 'server-only';
import { type GenericOAuthConfig, genericOAuth } from 'better-auth/plugins';
import { and, eq } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import type { Db } from '@/lib/db';
import { staffAccounts, staffUsers } from '@/lib/db/schema';
import { getSingleSignOnConfig } from '@/lib/env';

/** The provider's id in better-auth: also the last segment of the callback path the provider redirects to. */
export const SSO_PROVIDER_ID = 'oidc';

/** The one HTTP path of better-auth the dashboard exposes (app/api/auth/callback/[providerId]/route.ts). */
export const SSO_CALLBACK_PATH = `/api/auth/callback/${SSO_PROVIDER_ID}`;

/** Why better-auth refused a disabled account, as it appears in the callback's `error`. */
export const ACCOUNT_DISABLED_ERROR = 'account_disabled';

/** Why better-auth refused to link a second provider identity to an account, in the callback's `error`. */
export const OTHER_IDENTITY_ERROR = 'other_identity_linked';

/** The genericOAuth plugin for the configured provider, or nothing when single sign-on is not configured. */
export function singleSignOnPlugins() {
  const config = getSingleSignOnConfig();
  if (!config) return [];
  const provider: GenericOAuthConfig = {
    providerId: SSO_PROVIDER_ID,
    name: config.label,
    discoveryUrl: `${config.issuer}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    scopes: ['openid', 'email', 'profile'],
    pkce: true,
    // Without the provider's issuer and keys the provider is not registered at all, rather
    // than accepting ID tokens nobody checked.
    requireIdTokenVerification: true,
    disableSignUp: true,
    disableImplicitSignUp: true,
    // An address the provider has not verified is no address at all: dropping it here stops
    // better-auth before it looks any account up (`email_not_found`), so the answer to an
    // unverified address is the same whether or not a colleague has it.
    mapProfileToUser: (profile) => (isVerified(profile.email_verified ?? profile.emailVerified) ? {} : { email: '' }),
  };
  return [genericOAuth({ config: [provider] })];
}

function isVerified(value: unknown): boolean {
  return value === true || value === 'true';
}

type GateData = {
  user: { id?: string | undefined } & Record<string, unknown>;
  source: { method: string; action?: string | undefined; oauth?: { providerId: string } | undefined };
};

/** Whether a provider identity is linked to the account already. */
export async function hasLinkedIdentity(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: staffAccounts.id })
    .from(staffAccounts)
    .where(and(eq(staffAccounts.userId, userId), eq(staffAccounts.providerId, SSO_PROVIDER_ID)))
    .limit(1);
  return !!row;
}

/**
 * better-auth's `user.validateUserInfo`: asked before an account is linked to a staff member
 * and at every later sign-in through the provider. A disabled account is refused here, so no
 * account row is written for it (a refusal only at session creation would come after the link).
 * A link is asked for only when no account row has this identity's `sub`: an account that
 * already has one is being offered another identity (the same address, in any case), and is
 * refused. The refusals are audited here because only here is the account known.
 */
export function singleSignOnGate(db: Db) {
  return async ({ user, source }: GateData): Promise<{ error: string; errorDescription: string } | undefined> => {
    if (source.method !== 'oauth' || source.oauth?.providerId !== SSO_PROVIDER_ID) return undefined;
    if (!user.id) return { error: 'signup_disabled', errorDescription: 'No staff account' };
    const [staff] = await db.select({ disabled: staffUsers.disabled }).from(staffUsers).where(eq(staffUsers.id, user.id));
    if (!staff) return { error: 'signup_disabled', errorDescription: 'No staff account' };
    if (staff.disabled) {
      await recordAudit(
        { actorId: null, action: 'sso.refused', target: { type: 'staff', id: user.id }, details: { reason: 'disabled' } },
        db,
      );
      return { error: ACCOUNT_DISABLED_ERROR, errorDescription: 'This account is disabled' };
    }
    if (source.action === 'link-account' && (await hasLinkedIdentity(db, user.id))) {
      await recordAudit(
        { actorId: null, action: 'sso.refused', target: { type: 'staff', id: user.id }, details: { reason: 'other_identity' } },
        db,
      );
      return { error: OTHER_IDENTITY_ERROR, errorDescription: 'Another identity is linked to this account' };
    }
    return undefined;
  };
}

/**
 * Whether a new session comes from the provider's callback (better-auth's `/callback/:id`
 * endpoint for our provider), for the audit trail's `sso.signed_in`.
 */
export function isSingleSignOnCallback(context: { path?: string; params?: Record<string, unknown> } | null | undefined): boolean {
  // The path is the route's pattern or the request's own path, depending on how the endpoint was reached.
  return (context?.path === '/callback/:id' || context?.path === `/callback/${SSO_PROVIDER_ID}`) && context.params?.id === SSO_PROVIDER_ID;
}
