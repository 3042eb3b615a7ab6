// The dashboard's own catalogs, for browser tests that check a page in French or Dutch: they ask
// for the words the catalog holds, so a test follows a change of wording and still fails on a
// word that did not come from the catalog.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTranslator } from 'next-intl';

type Messages = { [key: string]: string | Messages };
export type CatalogLanguage = 'en' | 'fr' | 'nl';

const cache = new Map<CatalogLanguage, Messages>();

function messagesOf(language: CatalogLanguage): Messages {
  let messages = cache.get(language);
  if (!messages) {
    const dir = path.resolve('messages', language);
    messages = Object.fromEntries(
      readdirSync(dir).map((file) => [path.basename(file, '.json'), JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Messages]),
    );
    cache.set(language, messages);
  }
  return messages;
}

/** A translate function over a language's catalogs, as the server formats them. */
export function catalog(language: CatalogLanguage) {
  // biome-ignore lint/suspicious/noExplicitAny: keys are runtime strings in tests.
  const t = createTranslator({ locale: language, messages: messagesOf(language), timeZone: 'UTC' }) as any;
  return (key: string, values?: Record<string, string | number>): string => t(key, values);
}
