// The notice on a finished request's detail page in the last seven days before its kept_until
// (lib/verifications/record/purge-notice.ts): when its data goes, and the evidence pack to keep
// before then. Nothing is rendered outside that window.
import { useLocale, useTranslations } from 'next-intl';
import { Alert } from '@/components/ui/alert';
import { Download } from '@/components/ui/icons';
import { isLanguage } from '@/lib/i18n/languages';
import { formatDate } from '@/lib/time/display-time';
import { evidencePackHref } from '@/lib/verifications/evidence/links';
import { purgeNoticeDue } from '@/lib/verifications/record/purge-notice';

export function PurgeNotice({
  id,
  record,
  now,
  timeZone,
}: {
  id: string;
  record: { status: string; kept_until: string };
  /** The page's moment, so the notice agrees with the other relative times on it. */
  now: number;
  timeZone: string;
}) {
  const t = useTranslations('detail.purgeNotice');
  const locale = useLocale();
  if (!purgeNoticeDue(record, now)) return null;
  const date = formatDate(record.kept_until, timeZone, isLanguage(locale) ? locale : undefined);
  const linkClasses = 'inline-flex items-center gap-1 font-medium underline underline-offset-2 hover:no-underline';
  return (
    <Alert tone="warning" title={t('title', { date })}>
      <p data-testid="purge-notice">{t('explanation')}</p>
      {/* The pack is for the screen's reader to download; a printed page has no use for the links. */}
      <p className="flex flex-wrap gap-x-4 gap-y-1 print:hidden">
        <a href={evidencePackHref(id, 'pdf')} className={linkClasses} download>
          <Download aria-hidden="true" className="size-4" />
          {t('downloadPdf')}
        </a>
        <a href={evidencePackHref(id, 'json')} className={linkClasses} download>
          <Download aria-hidden="true" className="size-4" />
          {t('downloadJson')}
        </a>
      </p>
    </Alert>
  );
}
