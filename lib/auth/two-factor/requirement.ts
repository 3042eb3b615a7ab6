// REQUIRE_2FA: whether a signed-in account must set up a second factor before it may use
// anything else. Only password accounts are asked: an account that signs in solely through the
// company's identity provider has its second factor there. The answer is part of the validated
// session (session.ts), so it is cached with it and forgotten with it when the account changes.
import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { staffAccounts } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';
import { HOME_PATH } from '../landing';
import type { Permission } from '../roles';

/** The one permission an account that must enrol still has: enrolling. */
export const ENROLMENT_PERMISSION = 'two-factor:own' satisfies Permission;

export const ENROLMENT_PAGE = '/account/two-factor';

/** The enrolment page, with where the person was going so they land there afterwards. */
export function enrolmentPath(returnTo: string | undefined): string {
  return returnTo && returnTo !== HOME_PATH ? `${ENROLMENT_PAGE}?next=${encodeURIComponent(returnTo)}` : ENROLMENT_PAGE;
}

/** better-auth's provider id of an e-mail-and-password account. */
const PASSWORD_PROVIDER = 'credential';

export async function hasPasswordAccount(db: Pick<Db, 'select'>, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: staffAccounts.id })
    .from(staffAccounts)
    .where(and(eq(staffAccounts.userId, userId), eq(staffAccounts.providerId, PASSWORD_PROVIDER)))
    .limit(1);
  return row !== undefined;
}

export async function mustEnrolTwoFactor(db: Pick<Db, 'select'>, user: { id: string; twoFactorEnabled: boolean }): Promise<boolean> {
  if (getEnv().REQUIRE_2FA !== 'on' || user.twoFactorEnabled) return false;
  return hasPasswordAccount(db, user.id);
}
