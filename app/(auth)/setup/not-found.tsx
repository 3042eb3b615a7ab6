// /setup once the first administrator exists: the link that led here was used (or superseded by
// the setup that happened), so the person is sent to sign in rather than left at "Page not found".

import { useTranslations } from 'next-intl';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { Link } from '@/components/ui/link';

export default function SetupDone() {
  const t = useTranslations('auth.setup.done');
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold text-slate-900">{t('heading')}</h1>
      <Alert tone="info" title={t('title')} role="status">
        <p>{t('body')}</p>
      </Alert>
      <Link href="/sign-in" className={buttonClasses('primary')}>
        {t('signIn')}
      </Link>
    </div>
  );
}
