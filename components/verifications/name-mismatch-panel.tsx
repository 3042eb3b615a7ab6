// A completed request whose identified name differs from the requested one: both names side by
// side, exactly as written (the register's copy of what staff typed, the service's reading of the
// document), why they count as different, and what follows (the review, passed in).

// Rendered inside the detail page's client part (verification-details.tsx), so its words come
// from the client catalog the page hands down (detail.mismatch).
import type { ReactNode } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { TriangleAlert } from '@/components/ui/icons';
import type { NameComparison } from '@/lib/verifications/review/name-match';

/** The words that differ, as written, for the reason's message. */
function reasonValues({ why }: NameComparison): Record<string, string> {
  return {
    requested: 'requested' in why ? why.requested : '',
    identified: 'identified' in why ? why.identified : '',
  };
}

export function NameMismatchPanel({
  requestedName,
  identifiedName,
  comparison,
  decided,
  children,
}: {
  requestedName: string;
  identifiedName: string;
  comparison: NameComparison;
  /** Whether a decision has been recorded (the heading then no longer asks for one). */
  decided: boolean;
  children?: ReactNode;
}) {
  const t = useClientTranslations('detail.mismatch');
  return (
    <section aria-labelledby="name-mismatch-heading" className="rounded-lg bg-white shadow-sm ring-1 ring-amber-300" data-name-review>
      <div className="flex items-start gap-3 border-b border-amber-200 bg-amber-50 px-5 py-4 text-amber-950">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-amber-700" />
        <div className="min-w-0 space-y-0.5">
          <h2 id="name-mismatch-heading" className="text-base font-semibold">
            {decided ? t('headingDecided') : t('headingNeeded')}
          </h2>
          <p className="text-sm">{t(`reasons.${comparison.why.code}`, reasonValues(comparison))}</p>
        </div>
      </div>
      <div className="grid gap-px bg-slate-200 sm:grid-cols-2">
        <div className="bg-white px-5 py-4">
          <p className="text-sm font-medium text-slate-600">{t('requestedName')}</p>
          <p className="mt-1 text-lg font-semibold break-words text-slate-900" data-testid="requested-name" translate="no">
            {requestedName}
          </p>
          <p className="mt-0.5 text-xs text-slate-500">{t('requestedHint')}</p>
        </div>
        <div className="bg-white px-5 py-4">
          <p className="text-sm font-medium text-slate-600">{t('identifiedName')}</p>
          <p className="mt-1 text-lg font-semibold break-words text-slate-900" data-testid="identified-name" translate="no">
            {identifiedName}
          </p>
          <p className="mt-0.5 text-xs text-slate-500">{t('identifiedHint')}</p>
        </div>
      </div>
      {children ? <div className="border-t border-slate-200 px-5 py-4">{children}</div> : null}
    </section>
  );
}
