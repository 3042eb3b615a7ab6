// The "Request" card of a detail page: what the register keeps of a request this dashboard
// created (when, in which language, sent how) and, for staff who may copy it, its shareable link.
import { useLocale, useTranslations } from 'next-intl';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { TimeText } from '@/components/ui/time-text';
import { isLanguage } from '@/lib/i18n/languages';
import type { RequestFacts as Facts } from '@/lib/verifications/record/verification-page.server';
import { CopyLinkButton } from './copy-link-button';

export function RequestFacts({ id, facts, timeZone }: { id: string; facts: Facts; timeZone: string }) {
  const t = useTranslations('detail');
  const locale = useLocale();
  const { shareableLink, emailNotification, smsNotification } = facts.channels;
  const channels = [
    shareableLink ? t('channels.link') : null,
    emailNotification ? t('channels.email') : null,
    smsNotification ? t('channels.sms') : null,
  ].filter((name): name is string => name !== null);
  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold text-slate-900">{t('facts.heading')}</h2>
      </CardHeader>
      <CardBody className="space-y-4 text-sm">
        <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-3">
          <div>
            <dt className="text-slate-600">{t('facts.created')}</dt>
            <dd className="text-slate-900">
              <TimeText iso={facts.createdAt.toISOString()} timeZone={timeZone} language={isLanguage(locale) ? locale : undefined} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-600">{t('facts.language')}</dt>
            <dd className="text-slate-900">{isLanguage(facts.language) ? t(`languages.${facts.language}`) : facts.language}</dd>
          </div>
          <div>
            <dt className="text-slate-600">{t('facts.sentBy')}</dt>
            <dd className="text-slate-900">{channels.length > 0 ? channels.join(', ') : t('channels.none')}</dd>
          </div>
        </dl>
        {/* The link and its copy button are for the screen: paper would only spread the link. */}
        {facts.link?.usable ? (
          <div className="flex flex-wrap items-center gap-3 print:hidden">
            <code className="min-w-0 flex-1 rounded bg-slate-100 px-2 py-1.5 font-mono text-xs break-all">{facts.link.url}</code>
            <CopyLinkButton link={facts.link.url} verificationId={id} size="sm" />
          </div>
        ) : facts.link ? (
          <p className="text-slate-600">{t('facts.linkUnusable')}</p>
        ) : null}
      </CardBody>
    </Card>
  );
}
