'use client';
// The ten backup codes, shown once right after enrolment: to copy or download as a text file
// (a data: link, so the download works without JavaScript too), with plain words on how they work.
import { Download } from 'lucide-react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { CopyTextButton } from './copy-text-button';

export function BackupCodes({ codes }: { codes: string[] }) {
  const t = useClientTranslations('account.twoFactor.backup');
  const text = [t('fileTitle'), t('fileRule'), '', ...codes, ''].join('\n');
  return (
    <section aria-labelledby="backup-codes-heading" className="space-y-4">
      <Alert tone="warning" title={t('saveTitle')}>
        <p>{t('saveText')}</p>
      </Alert>
      <h2 id="backup-codes-heading" className="text-base font-semibold text-slate-900">
        {t('heading', { total: codes.length })}
      </h2>
      <ol className="grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-slate-50 px-3 py-2 text-center text-slate-900 ring-1 ring-slate-200 ring-inset">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <CopyTextButton text={codes.join('\n')} label={t('copy')} copiedMessage={t('copied')} />
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download={t('fileName')}
          className={buttonClasses('secondary', 'sm')}
        >
          <Download aria-hidden="true" className="size-4" />
          {t('download')}
        </a>
      </div>
    </section>
  );
}
