// Who is signed in, for pages, server actions and route handlers. Every entry point asks here
// itself: a layout's check does not protect the page or action beneath it.
import 'server-only';
import { cookies, headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { getDb } from '@/lib/db';
import { isLanguage, type Language } from '@/lib/i18n/languages';
import { getAuth, SESSION_COOKIE_PREFIX } from './auth';
import { can, isStaffRole, type Permission, type StaffRole } from './roles';
import { forgetValidatedSessions, rememberValidatedSession } from './session-cache';
import { ENROLMENT_PERMISSION, enrolmentPath, mustEnrolTwoFactor } from './two-factor/requirement';

export type Staff = {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  sessionId: string;
  /** The dashboard language they chose, if they did (else their browser's is used). */
  language?: Language;
  /** REQUIRE_2FA is on and this password account has no second factor yet: it may only enrol (two-factor/requirement.ts). */
  mustEnrolTwoFactor?: boolean;
};

/** The signed-in, enabled staff member of this request, or null. Looked up once per request. */
export const getCurrentStaff = cache(async (): Promise<Staff | null> => staffFromHeaders(await headersWithCurrentCookies()));

/**
 * The request's headers, with its cookies as they stand now. A server action that replaced the
 * session (turning two-factor on or off does) has set a new session cookie, and the page Next
 * renders after it in the same request must read that one: Next brings cookies() up to date for
 * that render, not headers(). Read with the old cookie, better-auth would find the session gone
 * and clear the new cookie on its way out, signing the person out.
 */
async function headersWithCurrentCookies(): Promise<Headers> {
  const current = new Headers(await headers());
  const jar = (await cookies()).getAll();
  if (jar.length === 0) current.delete('cookie');
  else current.set('cookie', jar.map(({ name, value }) => `${name}=${encodeURIComponent(value)}`).join('; '));
  return current;
}

export async function staffFromHeaders(requestHeaders: Headers): Promise<Staff | null> {
  const key = sessionCookies(requestHeaders.get('cookie'));
  if (!key) return null; // no auth cookie, no session: nothing to ask the database
  // See session-cache.ts for why a cached answer is as good as a fresh one.
  const staff = await rememberValidatedSession(await getDb(), key, async () => {
    const auth = await getAuth();
    const session = await auth.api.getSession({ headers: requestHeaders });
    if (!session) return undefined;
    const user = session.user as typeof session.user & {
      role?: unknown;
      disabled?: unknown;
      twoFactorEnabled?: unknown;
      language?: unknown;
    };
    if (user.disabled === true || !isStaffRole(user.role)) return undefined;
    const value: Staff = { id: user.id, name: user.name, email: user.email, role: user.role, sessionId: session.session.id };
    if (isLanguage(user.language)) value.language = user.language;
    if (await mustEnrolTwoFactor(await getDb(), { id: user.id, twoFactorEnabled: user.twoFactorEnabled === true })) {
      value.mustEnrolTwoFactor = true;
    }
    return { value, expiresAt: new Date(session.session.expiresAt) };
  });
  return staff ?? null;
}

/**
 * The request's auth cookies (better-auth's, by their prefix), sorted: all a session depends
 * on, so the cache key changes whenever what better-auth would read changes.
 */
function sessionCookies(header: string | null): string | undefined {
  if (!header) return undefined;
  const ours = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${SESSION_COOKIE_PREFIX}.`) || part.startsWith(`__Secure-${SESSION_COOKIE_PREFIX}.`))
    .sort();
  return ours.length > 0 ? ours.join('; ') : undefined;
}

/**
 * For pages: the staff member, if allowed. Without a session it redirects to sign-in (and
 * back here afterwards); with a role that lacks the permission it renders the 403 page.
 */
export async function requireStaff(permission: Permission, returnTo?: string): Promise<Staff> {
  const staff = await getCurrentStaff();
  if (!staff) redirect(returnTo ? `/sign-in?next=${encodeURIComponent(returnTo)}` : '/sign-in');
  // Until a required second factor is set up, every page but the enrolment page leads there.
  if (staff.mustEnrolTwoFactor && permission !== ENROLMENT_PERMISSION) redirect(enrolmentPath(returnTo));
  if (!can(staff.role, permission)) forbidden();
  return staff;
}

/**
 * Before a new sign-in on this browser (password, single sign-on, break-glass link, accepted
 * invitation): ends the session it may still hold, here and in every instance's session cache,
 * so each sign-in starts a new session and the previous person is not carried over.
 */
export async function endSessionOnThisBrowser(requestHeaders: Headers): Promise<void> {
  if (!(await getCurrentStaff())) return;
  const auth = await getAuth();
  await auth.api.signOut({ headers: requestHeaders }).catch(() => undefined);
  await forgetValidatedSessions(await getDb());
}
