'use client';
import { useEffect, useLayoutEffect, useState } from 'react';
import { Alert } from '@/components/ui/alert';
// What a new request sent, as the result panel sums it up: the name, the channels, the language
// and when the person's link stops working. The service's create answer has no dates, so the
// expiry is read once through the dashboard's read route after the panel appears (the create
// itself never waits for a second round trip); without JavaScript the request's page has it.
import { Link } from '@/components/ui/link';
import { LocalTime } from '@/components/ui/local-time';
import { relativeTime } from '@/lib/time/display-time';
import { channelsLabel } from '@/lib/verifications/channels';
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

function ExpiryText({ expiry, detailHref }: { expiry: Expiry; detailHref: string }) {
  switch (expiry.state) {
    case 'read':
      return (
        <span className="space-x-1">
          <LocalTime iso={expiry.iso} />
          <span className="text-slate-600">(expires {relativeTime(expiry.iso, expiry.readAt)})</span>
        </span>
      );
    case 'reading':
      return <span className="text-slate-600">Asking the service…</span>;
    default:
      return (
        <span className="text-slate-600">
          Not known yet:{' '}
          <Link href={detailHref} className="underline underline-offset-2 hover:no-underline">
            the request's page
          </Link>{' '}
          shows it.
        </span>
      );
  }
}

export function CreationSummary({ verificationId, summary }: { verificationId: string; summary: Summary }) {
  const expiry = useLinkExpiry(verificationId);
  const detailHref = `/verifications/${encodeURIComponent(verificationId)}`;
  return (
    <section aria-labelledby="creation-summary-heading" className="space-y-2" data-testid="creation-summary">
      <h3 id="creation-summary-heading" className="text-sm font-semibold text-slate-900">
        What was sent
      </h3>
      <dl className="grid gap-x-6 gap-y-3 rounded-md p-4 text-sm ring-1 ring-slate-200 sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-slate-600">Name</dt>
          <dd className="break-words text-slate-900">{summary.name}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Sent by</dt>
          <dd className="text-slate-900">{channelsLabel(summary.channels)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Language</dt>
          <dd className="text-slate-900">{languageLabel(summary.language)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Link valid until</dt>
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
  if (outcome.linked) {
    return (
      <p className="text-sm break-words text-slate-700" data-testid="follow-up-outcome">
        Follow-up of{' '}
        <Link
          href={`/verifications/${encodeURIComponent(outcome.verificationId)}`}
          className="font-mono text-xs break-all text-indigo-700 underline underline-offset-2 hover:no-underline"
        >
          {outcome.verificationId}
        </Link>
        : each request's page links to the other.
      </p>
    );
  }
  return (
    <Alert tone="warning" title="Not linked to an earlier request" className="break-words">
      <p>{outcome.message} The new request was created all the same.</p>
    </Alert>
  );
}
