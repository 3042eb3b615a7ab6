'use client';
// Shown when a page fails unexpectedly: no stack trace, a way back, and a retry.
//
// An error boundary is a client component, and Next renders this one inside the root layout
// (app/layout.tsx): the layout's <ClientMessagesFor namespaces={['shell.error']}> is above it, so
// its words come from the catalog in the reader's language, as for any client component. (It
// cannot take props from the server, and next-intl's client runtime is not shipped.)
//
// The way back is a plain link, and the button classes come without Button's module: neither
// brings next/link, which would otherwise be a second copy in every page's first load (this
// boundary's code is in all of them, and the dashboard layout ships next/link too), about 4 KB
// gzip. After an unexpected failure a full load of the requests page is the surer way back anyway.
import { useClientTranslations } from '@/components/i18n/client-messages';
import { buttonClasses } from '@/components/ui/button-classes';

export default function RootError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useClientTranslations('shell.error');
  return (
    <main className="mx-auto max-w-xl space-y-4 px-6 py-16">
      <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
      <p className="text-slate-700">{t('explanation')}</p>
      <div className="flex gap-3">
        <button type="button" className={buttonClasses('primary')} onClick={reset}>
          {t('retry')}
        </button>
        <a href="/" className={buttonClasses('secondary')}>
          {t('backToRequests')}
        </a>
      </div>
    </main>
  );
}
