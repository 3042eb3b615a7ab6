'use client';
// Replaces the root layout when it fails itself; must render its own <html>.
//
// Its words: this boundary renders outside the root layout, where the request's language and the
// catalogs are handed down (app/layout.tsx), and when it shows, that layout has just failed. So it
// fetches its few words itself: the shell catalog of the browser's language (the language cookie,
// which mirrors a signed-in staff member's choice, else the browser's languages), as a chunk loaded
// only now. Bundling the catalogs into it instead would put them in every page's first load, since
// this boundary's code is in all of them. Until the chunk arrives (a moment) the page stays blank
// rather than show words in a language that may not be the reader's.
import { useEffect, useState } from 'react';
import { ClientMessagesProvider, useClientTranslations } from '@/components/i18n/client-messages';
import type { Messages } from '@/lib/i18n/catalogs';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGES, type Language } from '@/lib/i18n/languages';
import './globals.css';

function browserLanguage(): Language {
  const chosen = document.cookie
    .split('; ')
    .find((entry) => entry.startsWith(`${LANGUAGE_COOKIE}=`))
    ?.slice(LANGUAGE_COOKIE.length + 1);
  if (isLanguage(chosen)) return chosen;
  for (const tag of navigator.languages) {
    const language = LANGUAGES.find((code) => tag.toLowerCase().split('-')[0] === code);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

export default function GlobalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const [catalog, setCatalog] = useState<{ language: Language; messages: Messages }>();
  useEffect(() => {
    const language = browserLanguage();
    import(`../messages/${language}/shell.json`)
      .then((shell: { default: { globalError: Messages } }) =>
        setCatalog({ language, messages: { shell: { globalError: shell.default.globalError } } }),
      )
      .catch(() => undefined);
  }, []);
  return (
    <html lang={catalog?.language ?? DEFAULT_LANGUAGE}>
      <body>
        {catalog ? (
          <ClientMessagesProvider language={catalog.language} messages={catalog.messages}>
            <Trouble reset={reset} />
          </ClientMessagesProvider>
        ) : null}
      </body>
    </html>
  );
}

function Trouble({ reset }: { reset: () => void }) {
  const t = useClientTranslations('shell.globalError');
  return (
    <main className="mx-auto max-w-xl space-y-4 px-6 py-16">
      <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
      <p className="text-slate-700">{t('explanation')}</p>
      <button
        type="button"
        onClick={reset}
        className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
      >
        {t('retry')}
      </button>
    </main>
  );
}
