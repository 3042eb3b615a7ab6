// The detail page of a request the service has purged under the retention policy
// (lib/verifications/record/purged.server.ts): when its data went, what the register still holds
// of it, labelled as the register's copy, and its history. Not an error: the page answers 200.
import { useLocale, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Card, CardHeader } from '@/components/ui/card';
import { TimeText } from '@/components/ui/time-text';
import { isLanguage } from '@/lib/i18n/languages';
import { formatDate } from '@/lib/time/display-time';
import { isPredefinedPurpose } from '@/lib/verifications/labels';
import type { PurgedRequest } from '@/lib/verifications/record/purged.server';
import { StatusBadge } from './status-badge';

const STATUSES = new Set(['pending', 'completed', 'expired', 'failed']);
const METHODS = new Set(['passport', 'id_card', 'drivers_license']);

function Row({ label, children, userData }: { label: string; children: ReactNode; userData?: boolean }) {
  return (
    <div className="grid gap-1 px-5 py-3.5 sm:grid-cols-3 sm:gap-4 print:grid-cols-3 print:gap-4">
      <dt className="text-sm font-medium text-slate-600 print:text-black">{label}</dt>
      <dd
        className="text-sm break-words text-slate-900 sm:col-span-2 print:col-span-2 print:text-black"
        translate={userData ? 'no' : undefined}
      >
        {children}
      </dd>
    </div>
  );
}

export function PurgedVerification({
  id,
  request,
  timeZone,
  history,
}: {
  id: string;
  request: PurgedRequest;
  timeZone: string;
  history: ReactNode;
}) {
  const t = useTranslations('detail.purged');
  const tCommon = useTranslations('common');
  const locale = useLocale();
  const language = isLanguage(locale) ? locale : undefined;
  const status = request.lastStatus;
  const method = request.method;
  return (
    <div className="space-y-6" data-testid="purged-verification">
      <div className="min-w-0 space-y-1">
        <h1 className="text-2xl font-semibold break-words text-slate-900 print:text-black" translate="no">
          {request.requestedName}
        </h1>
        <p className="font-mono text-xs break-all text-slate-500 print:text-black">
          <span className="sr-only">{t('idLabel')} </span>
          {id}
        </p>
      </div>
      <Alert tone="info" title={t('title', { date: formatDate(request.purgedOn, timeZone, language) })}>
        <p>{t('explanation')}</p>
      </Alert>
      <Card aria-labelledby="register-copy-heading" className="print:shadow-none print:ring-0">
        <CardHeader>
          <h2 id="register-copy-heading" className="text-base font-semibold text-slate-900 print:text-black">
            {t('copyHeading')}
          </h2>
          <p className="mt-1 text-sm text-slate-600 print:text-black">{t('copyHint')}</p>
        </CardHeader>
        <dl className="divide-y divide-slate-100">
          <Row label={t('requestedName')} userData>
            {request.requestedName}
          </Row>
          <Row label={t('purpose')} userData={!isPredefinedPurpose(request.purpose)}>
            {isPredefinedPurpose(request.purpose) ? tCommon(`purpose.${request.purpose}`) : request.purpose}
          </Row>
          <Row label={t('created')}>
            <TimeText iso={request.createdAt} timeZone={timeZone} language={language} />
          </Row>
          <Row label={t('createdBy')} userData={request.createdByName !== null}>
            {request.createdByName ?? t('deletedAccount')}
          </Row>
          <Row label={t('lastStatus')}>
            <StatusBadge status={status} label={STATUSES.has(status) ? tCommon(`status.${status}`) : status} />
          </Row>
          {request.identifiedName !== null ? (
            <Row label={t('identifiedName')} userData>
              {request.identifiedName}
            </Row>
          ) : null}
          {request.completedAt !== null ? (
            <Row label={t('completedAt')}>
              <TimeText iso={request.completedAt} timeZone={timeZone} language={language} />
            </Row>
          ) : null}
          {method !== null ? <Row label={t('method')}>{METHODS.has(method) ? tCommon(`method.${method}`) : method}</Row> : null}
          {request.failureReason !== null ? (
            <Row label={t('failureReason')} userData>
              {request.failureReason}
            </Row>
          ) : null}
        </dl>
      </Card>
      {history}
    </div>
  );
}
