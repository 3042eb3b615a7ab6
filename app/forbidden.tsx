// Shown (with HTTP 403) when a signed-in staff member opens a page their role does not allow.

import { useTranslations } from 'next-intl';
import { buttonClasses } from '@/components/ui/button';
import { ShieldAlert } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';

export default function Forbidden() {
  const t = useTranslations('shell.forbidden');
  return (
    <div className="mx-auto max-w-xl space-y-4 px-6 py-16">
      <ShieldAlert aria-hidden="true" className="size-8 text-slate-500" />
      <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
      <p className="text-slate-700">{t('explanation')}</p>
      <Link href="/" className={buttonClasses('secondary')}>
        {t('backToRequests')}
      </Link>
    </div>
  );
}
