// Translators outside a page's request: the CLIs, background jobs and tests, which have no
// next-intl request configuration to ask. Same catalogs, same ICU formatting.
import { createTranslator } from 'next-intl';
import { loadMessages } from './catalogs';
import type { Language } from './languages';

/** A translate function for one namespace of a language's catalogs ('exports', 'audit.actions'). */
export async function translatorFor(language: Language, namespace?: string) {
  const messages = await loadMessages(language);
  // biome-ignore lint/suspicious/noExplicitAny: the namespace is a runtime string here; the catalogs test checks the keys.
  return createTranslator({ locale: language, messages, namespace: namespace as any });
}
