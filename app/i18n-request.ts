// next-intl's request configuration (next.config.mjs points here): the language of this request
// (lib/account/language.ts), every catalog of it, and the display zone every date is written in.
// It sits with the routes because it composes the session (identity) with the catalogs (ground).
import { cookies } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { requestLanguage } from '@/lib/account/language';
import { loadMessages } from '@/lib/i18n/catalogs';
import { PSEUDO_COOKIE, pseudoLanguageEnabled, pseudoMessages } from '@/lib/i18n/pseudo';
import { displayTimeZone } from '@/lib/time/display-zone';

export default getRequestConfig(async () => {
  const locale = await requestLanguage();
  const messages = await loadMessages(locale);
  const pseudo = pseudoLanguageEnabled() && (await cookies()).get(PSEUDO_COOKIE)?.value === 'on';
  return { locale, messages: pseudo ? pseudoMessages(messages) : messages, timeZone: await displayTimeZone() };
});
