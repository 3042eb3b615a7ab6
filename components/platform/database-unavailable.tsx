'use client';
// What a page shows while the database cannot be reached: plainly that, that it is not the
// visitor's doing, and a retry. Pages come back by themselves once the database does (no
// restart), so trying again is the whole remedy.
import { DatabaseZap } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';

export const DATABASE_UNAVAILABLE_TITLE = 'Database unavailable';

export function DatabaseUnavailable({ onRetry }: { onRetry?: () => void }) {
  return (
    <div className="mx-auto max-w-2xl space-y-6" data-problem="database-unavailable" role="alert">
      <div className="flex gap-4">
        <DatabaseZap aria-hidden="true" className="mt-1 size-8 shrink-0 text-slate-500" />
        <div className="min-w-0 space-y-2">
          <h1 className="text-2xl font-semibold text-slate-900">{DATABASE_UNAVAILABLE_TITLE}</h1>
          <p className="text-slate-700">
            The dashboard cannot reach its database right now, so this page cannot be shown. Nothing you did caused it, and nothing already
            saved is lost. Try again in a moment; if it lasts, tell your administrator.
          </p>
        </div>
      </div>
      <div className="pl-12">
        <button type="button" className={buttonClasses('primary')} onClick={() => (onRetry ? onRetry() : window.location.reload())}>
          Try again
        </button>
      </div>
    </div>
  );
}
