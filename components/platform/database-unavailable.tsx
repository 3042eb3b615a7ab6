'use client';
// What a page shows while the database cannot be reached: plainly that, that it is not the
// visitor's doing, and a retry. Pages come back by themselves once the database does (no
// restart), so trying again is the whole remedy. Its words come from 'shell.databaseUnavailable',
// which the dashboard's layout hands down (app/(dashboard)/layout.tsx) both where it shows this
// itself and to its error boundary.
import { DatabaseZap } from 'lucide-react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { buttonClasses } from '@/components/ui/button';

export function DatabaseUnavailable({ onRetry }: { onRetry?: () => void }) {
  const t = useClientTranslations('shell.databaseUnavailable');
  return (
    <div className="mx-auto max-w-2xl space-y-6" data-problem="database-unavailable" role="alert">
      <div className="flex gap-4">
        <DatabaseZap aria-hidden="true" className="mt-1 size-8 shrink-0 text-slate-500" />
        <div className="min-w-0 space-y-2">
          <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
          <p className="text-slate-700">{t('explanation')}</p>
        </div>
      </div>
      <div className="pl-12">
        <button type="button" className={buttonClasses('primary')} onClick={() => (onRetry ? onRetry() : window.location.reload())}>
          {t('retry')}
        </button>
      </div>
    </div>
  );
}
