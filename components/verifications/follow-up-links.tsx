// The follow-up part of a detail page: the request this one follows up, the requests that
// follow it up, and — on an expired or failed request, for staff who may create — the way to
// start a new request from it (the contract has no resend or extend; a new request is what it
// allows). A server component: the links come from the register.

import { getLocale, getTranslations } from 'next-intl/server';
import { buttonClasses } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ArrowRight, RotateCcw } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { TimeText } from '@/components/ui/time-text';
import { isLanguage } from '@/lib/i18n/languages';
import { canBeFollowedUp, getFollowUpLinks, type LinkedRequest } from '@/lib/verifications/follow-up/follow-up.server';

function RequestLink({ request }: { request: LinkedRequest }) {
  return (
    <Link
      href={`/verifications/${encodeURIComponent(request.verificationId)}`}
      className="font-medium text-indigo-700 underline underline-offset-2 hover:no-underline"
    >
      <span translate="no">{request.name}</span> <span className="font-mono text-xs break-all">({request.verificationId})</span>
    </Link>
  );
}

export async function FollowUpLinks({
  id,
  status,
  canCreate,
  timeZone,
}: {
  id: string;
  status: string;
  canCreate: boolean;
  timeZone: string;
}) {
  const [{ follows, followedBy }, t, tCommon, locale] = await Promise.all([
    getFollowUpLinks(id),
    getTranslations('detail.followUp'),
    getTranslations('common'),
    getLocale(),
  ]);
  const language = isLanguage(locale) ? locale : undefined;
  const link = () => (follows ? <RequestLink request={follows} /> : null);
  const offerFollowUp = canCreate && canBeFollowedUp(status);
  if (!follows && followedBy.length === 0 && !offerFollowUp) return null;

  return (
    // Only the offer to follow up, which is for the screen: a printed page leaves the card out.
    <Card
      aria-labelledby="follow-up-heading"
      data-testid="follow-up"
      className={follows || followedBy.length > 0 ? undefined : 'print:hidden'}
    >
      <CardHeader>
        <h2 id="follow-up-heading" className="text-base font-semibold text-slate-900">
          {t('heading')}
        </h2>
      </CardHeader>
      <CardBody className="space-y-4 text-sm">
        {follows ? (
          <p className="break-words text-slate-700">
            {follows.status === 'failed' ? t.rich('followsFailed', { link }) : t.rich('followsExpired', { link })}
          </p>
        ) : null}
        {followedBy.length > 0 ? (
          <div className="space-y-1">
            <p className="text-slate-700">{t('followedBy')}</p>
            <ul className="space-y-1">
              {followedBy.map((request) => (
                <li key={request.verificationId} className="break-words text-slate-700">
                  <RequestLink request={request} />, {t('created')}{' '}
                  <TimeText iso={request.createdAt.toISOString()} timeZone={timeZone} language={language} />{' '}
                  <span className="text-slate-600">({tCommon(`status.${request.status}`)})</span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {offerFollowUp ? (
          <div className="flex flex-wrap items-center gap-3 print:hidden">
            <p className="min-w-0 flex-1 text-slate-600">{t('cannotResend')}</p>
            <Link href={`/verifications/new?from=${encodeURIComponent(id)}`} className={buttonClasses('primary', 'md')}>
              <RotateCcw aria-hidden="true" className="size-4" />
              {t('create')}
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          </div>
        ) : null}
      </CardBody>
    </Card>
  );
}
