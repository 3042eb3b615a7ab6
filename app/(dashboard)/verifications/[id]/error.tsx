'use client';
import { CloudOff } from 'lucide-react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { buttonClasses } from '@/components/ui/button';
// Last line of defence for the detail page: an unexpected failure still gets a calm page.
// Deliberately small (no lookup form, unlike the expected problems the page itself explains):
// this boundary's code is part of every detail page's first load.
import { Link } from '@/components/ui/link';

export default function VerificationError({ reset }: { reset: () => void }) {
  // Its words come from the segment's layout (layout.tsx), which wraps this boundary.
  const t = useClientTranslations('detail.error');
  return (
    <div className="mx-auto max-w-2xl space-y-6" data-problem="unexpected">
      <div className="flex gap-4">
        <CloudOff aria-hidden="true" className="mt-1 size-8 shrink-0 text-slate-500" />
        <div className="min-w-0 space-y-2">
          <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
          <p className="text-slate-700">{t('message')}</p>
        </div>
      </div>
      <div className="flex flex-wrap gap-3 pl-12">
        <button type="button" className={buttonClasses('primary')} onClick={reset}>
          {t('tryAgain')}
        </button>
        <Link href="/" className={buttonClasses('secondary')}>
          {t('backToRequests')}
        </Link>
      </div>
    </div>
  );
}
