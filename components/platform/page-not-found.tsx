// What "Page not found" says, wherever it is shown: on its own (app/not-found.tsx), or inside
// the dashboard's layout for signed-in staff (app/(dashboard)/not-found.tsx), which provides the
// page's <main> there.

import { useTranslations } from 'next-intl';
import { buttonClasses } from '@/components/ui/button';
import { Link } from '@/components/ui/link';

export function PageNotFound() {
  const t = useTranslations('shell.notFound');
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
      <p className="text-slate-700">{t('explanation')}</p>
      <Link href="/" className={buttonClasses('secondary')}>
        {t('backToRequests')}
      </Link>
    </div>
  );
}
