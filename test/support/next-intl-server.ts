// Test support: next-intl's server functions for code that runs outside a Next.js request in
// tests (server actions, route handlers, server components rendered to a string). Next supplies
// the request's language through app/i18n-request.ts; here a test chooses it (English unless it
// says otherwise), and the real catalogs and ICU formatting answer.
import { createTranslator } from 'next-intl';
import { loadMessages } from '@/lib/i18n/catalogs';
import { DEFAULT_LANGUAGE, type Language } from '@/lib/i18n/languages';

let current: Language = DEFAULT_LANGUAGE;

/** The language the next calls answer in, until changed again. */
export function answerInLanguage(language: Language): void {
  current = language;
}

export async function getLocale(): Promise<Language> {
  return current;
}

export async function getMessages() {
  return loadMessages(current);
}

export async function getTimeZone(): Promise<string> {
  return 'UTC';
}

export async function getNow(): Promise<Date> {
  return new Date();
}

type Options = string | { locale?: Language; namespace?: string } | undefined;

export async function getTranslations(options?: Options) {
  const { locale = current, namespace } = typeof options === 'string' || options === undefined ? { namespace: options } : options;
  const messages = await loadMessages(locale);
  return createTranslator({ locale, messages, namespace: namespace as any });
}

export function getRequestConfig<T>(factory: T): T {
  return factory;
}
