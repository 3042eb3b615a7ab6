// Test support: renders a component tree the way a page would give it its messages, for tests
// that render to a string. Synchronous server components translate with next-intl's
// useTranslations (its provider stands in for the request), client ones with
// useClientTranslations (the resolved catalog, as ClientMessagesFor hands it down).
import { NextIntlClientProvider } from 'next-intl';
import type { ReactNode } from 'react';
import { ClientMessagesProvider } from '@/components/i18n/client-messages';
import { loadMessages } from '@/lib/i18n/catalogs';
import { DEFAULT_LANGUAGE, type Language } from '@/lib/i18n/languages';

export async function inLanguage(node: ReactNode, language: Language = DEFAULT_LANGUAGE): Promise<ReactNode> {
  const messages = await loadMessages(language);
  return (
    <NextIntlClientProvider locale={language} messages={messages} timeZone="UTC">
      <ClientMessagesProvider language={language} messages={messages}>
        {node}
      </ClientMessagesProvider>
    </NextIntlClientProvider>
  );
}
