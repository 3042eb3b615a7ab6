'use client';
import { useEffect, useLayoutEffect, useState } from 'react';
import { type ClientTranslate, useClientLanguage, useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
// What a new request sent, as the result panel sums it up: the name, the channels, the language
// and when the person's link stops working. The service's create answer has no dates, so the
// expiry is read once through the dashboard's read route after the panel appears (the create
// itself never waits for a second round trip); without JavaScript the request's page has it.
import { Link } from '@/components/ui/link';
import { LocalTime } from '@/components/ui/local-time';
import { relativeTime } from '@/lib/time/display-time';
import type { RequestChannels } from '@/lib/verifications/channels';
import type { FollowUpOutcome, CreationSummary as Summary } from '@/lib/verifications/create/form-state';
import { languageLabel } from '@/lib/verifications/labels';
import { fetchVerification } from '@/lib/verifications/record/fetch-verification';

type Expiry = { state: 'unread' } | { state: 'reading' } | { state: 'read'; iso: string; readAt: number } | { state: 'unknown' };

function useLinkExpiry(verificationId: string): Expiry {
  const [expiry, setExpiry] = useState<Expiry>({ state: 'unread' });
  // Before the first paint, so "open the request's page" (what the server's HTML says, for
  // browsers without JavaScript) does not flash by.
  useLayoutEffect(() => setExpiry({ state: 'reading' }), []);
  useEffect(() => {
    const controller = new AbortController();
    fetchVerification(verificationId, controller.signal).then(
      (record) => setExpiry({ state: 'read', iso: record.access_expires_at, readAt: Date.now() }),
      () => {
        if (!controller.signal.aborted) setExpiry({ state: 'unknown' });
      },
    );
    return () => controller.abort();
  }, [verificationId]);
  return expiry;
}

/** "Shareable link, E-mail, SMS"; "No channel" when every switch was off. */
function channelsText(channels: RequestChannels, t: ClientTranslate): string {
  const names = [
    channels.shareableLink && t('channelShareableLink'),
    channels.emailNotification && t('channelEmail'),
    channels.smsNotification && t('channelSms'),
  ].filter((name): name is string => typeof name === 'string');
  return names.length > 0 ? names.join(', ') : t('noChannel');
}

function ExpiryText({ expiry, detailHref }: { expiry: Expiry; detailHref: string }) {
  const t = useClientTranslations('create.result');
  const language = useClientLanguage();
  switch (expiry.state) {
    case 'read':
      return (
        <span className="space-x-1">
          <LocalTime iso={expiry.iso} />
          <span className="text-slate-600">{t('expires', { relative: relativeTime(expiry.iso, expiry.readAt, language) })}</span>
        </span>
      );
    case 'reading':
      return <span className="text-slate-600">{t('askingService')}</span>;
    default: {
      // The link sits where the sentence puts it, in every language.
      const [before, after] = t('expiryUnknown').split('{link}');
      return (
        <span className="text-slate-600">
          {before}
          <Link href={detailHref} className="underline underline-offset-2 hover:no-underline">
            {t('expiryUnknownLink')}
          </Link>
          {after}
        </span>
      );
    }
  }
}

export function CreationSummary({ verificationId, summary }: { verificationId: string; summary: Summary }) {
  const expiry = useLinkExpiry(verificationId);
  const detailHref = `/verifications/${encodeURIComponent(verificationId)}`;
  const t = useClientTranslations('create.result');
  return (
    <section aria-labelledby="creation-summary-heading" className="space-y-2" data-testid="creation-summary">
      <h3 id="creation-summary-heading" className="text-sm font-semibold text-slate-900">
        {t('summaryHeading')}
      </h3>
      <dl className="grid gap-x-6 gap-y-3 rounded-md p-4 text-sm ring-1 ring-slate-200 sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-slate-600">{t('summaryName')}</dt>
          <dd className="break-words text-slate-900" translate="no">
            {summary.name}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('summarySentBy')}</dt>
          <dd className="text-slate-900">{channelsText(summary.channels, t)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('summaryLanguage')}</dt>
          <dd className="text-slate-900">{languageLabel(summary.language)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">{t('summaryValidUntil')}</dt>
          <dd className="text-slate-900" aria-live="polite" data-testid="creation-link-expiry">
            <ExpiryText expiry={expiry} detailHref={detailHref} />
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** Whether the new request was linked to the one it was started from, and why not. */
export function FollowUpOutcomeNote({ outcome }: { outcome: FollowUpOutcome }) {
  const t = useClientTranslations('create.result');
  if (outcome.linked) {
    // The id, a link, sits where the sentence puts it, in every language.
    const [before, after] = t('followUpLinked').split('{id}');
    return (
      <p className="text-sm break-words text-slate-700" data-testid="follow-up-outcome">
        {before}
        <Link
          href={`/verifications/${encodeURIComponent(outcome.verificationId)}`}
          className="font-mono text-xs break-all text-indigo-700 underline underline-offset-2 hover:no-underline"
        >
          {outcome.verificationId}
        </Link>
        {after}
      </p>
    );
  }
  return (
    <Alert tone="warning" title={t('followUpNotLinkedTitle')} className="break-words">
      <p>{t('followUpNotLinked', { reason: outcome.message })}</p>
    </Alert>
  );
}
