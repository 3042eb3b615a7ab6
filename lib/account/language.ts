// The dashboard's language for this request, and a staff member's choice of it. A signed-in staff
// member's choice is kept on their account, so it follows them to every browser and instance;
// someone not signed in (sign-in, setup, an invitation) has it in a cookie. Without either, the
// browser's Accept-Language chooses among ours, and English is the fallback.
import 'server-only';
import { eq } from 'drizzle-orm';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { getCurrentStaff } from '@/lib/auth/session';
import { forgetValidatedSessions } from '@/lib/auth/session-cache';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import { languageFromAcceptLanguage } from '@/lib/i18n/accept-language';
import { isLanguage, LANGUAGE_COOKIE, type Language } from '@/lib/i18n/languages';
import { isDatabaseUnavailable } from '@/lib/platform/database-errors';

/** A year: the choice is a preference, not a secret, and should outlast any session. */
const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The language this request is answered in. Worked out once per request. */
export const requestLanguage = cache(async (): Promise<Language> => {
  const own = await signedInChoice();
  if (own) return own;
  const chosen = (await cookies()).get(LANGUAGE_COOKIE)?.value;
  if (isLanguage(chosen)) return chosen;
  return languageFromAcceptLanguage((await headers()).get('accept-language'));
});

async function signedInChoice(): Promise<Language | undefined> {
  try {
    return (await getCurrentStaff())?.language;
  } catch (error) {
    // The pages say the database is down, in the browser's language; nothing else is lost.
    if (isDatabaseUnavailable(error)) return undefined;
    throw error;
  }
}

/**
 * Makes `language` this browser's language and, when someone is signed in, theirs on every
 * browser and instance: the sessions other instances remember are forgotten, so their next page
 * reads the new choice.
 */
export async function chooseLanguage(language: Language): Promise<void> {
  const staff = await getCurrentStaff();
  if (staff) {
    const db = await getDb();
    await db.update(staffUsers).set({ language }).where(eq(staffUsers.id, staff.id));
    await forgetValidatedSessions(db);
  }
  const secure = (await headers()).get('x-forwarded-proto') === 'https';
  (await cookies()).set(LANGUAGE_COOKIE, language, { path: '/', maxAge: COOKIE_MAX_AGE_SECONDS, sameSite: 'lax', secure });
}
