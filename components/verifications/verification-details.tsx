'use client';
// The record of one verification, labelled for people. It starts from the server-rendered
// record. The moment it could be out of date — the live stream reports a change for this id
// (components/live announces it on window), the tab regains focus, or staff press Refresh — the
// React Query part (verification-details-live.tsx) takes over and keeps it current. React Query
// is loaded only then: most visits read the page and leave, and the page's first load stays small.
// For the same reason the names are compared elsewhere (lib/verifications/review/name-match.ts, with its
// tables): by the server for the record it rendered, by the live part for the records it fetches.
import { RefreshCw } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useClientLanguage, useClientTranslations } from '@/components/i18n/client-messages';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import { onAnnouncedChange } from '@/lib/live/protocol';
import { isPast, relativeTime } from '@/lib/time/display-time';
import { cn } from '@/lib/utils';
import type { VerificationRecord } from '@/lib/verification-service/schemas';
import { isPredefinedPurpose } from '@/lib/verifications/labels';
import type { NameReviewDecision } from '@/lib/verifications/review/labels';
import type { NameComparison } from '@/lib/verifications/review/name-match';
import { NameMismatchPanel } from './name-mismatch-panel';
import { StatusBadge } from './status-badge';

/** `userData`: the value is a person's or the service's own text, not ours to translate. */
function Row({ label, children, muted, userData }: { label: string; children: ReactNode; muted?: boolean; userData?: boolean }) {
  return (
    <div className="grid gap-1 px-5 py-3.5 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd
        className={cn('text-sm break-words sm:col-span-2', muted ? 'text-slate-500' : 'text-slate-900')}
        translate={userData ? 'no' : undefined}
      >
        {children}
      </dd>
    </div>
  );
}

function Deadline({ iso, now }: { iso: string; now: number }) {
  const t = useClientTranslations('detail.details');
  const language = useClientLanguage();
  const when = relativeTime(iso, now, language);
  return (
    <span className="space-x-1">
      <LocalTime iso={iso} />
      <span className="text-slate-600" suppressHydrationWarning>
        ({isPast(iso, now) ? t('expired', { when }) : t('expires', { when })})
      </span>
    </span>
  );
}

const STATUSES = new Set(['pending', 'completed', 'expired', 'failed']);
const METHODS = new Set(['passport', 'id_card', 'drivers_license']);

/**
 * The words for the service's codes, from common's statuses, methods and purposes. A code the
 * service added later (a real service may) shows as it comes rather than as a missing message.
 */
export function useCodeWords() {
  const tStatus = useClientTranslations('common.status');
  const tMethod = useClientTranslations('common.method');
  const tPurpose = useClientTranslations('common.purpose');
  return {
    status: (code: string) => (STATUSES.has(code) ? tStatus(code) : code),
    method: (code: string | null) => (code === null ? null : METHODS.has(code) ? tMethod(code) : code),
    purpose: (code: string) => (isPredefinedPurpose(code) ? tPurpose(code) : code),
  };
}

export type DetailsProps = {
  id: string;
  initialRecord: VerificationRecord;
  /** The name as staff typed it, from the register (the record's copy when the register has none). */
  requestedName?: string;
  /** The latest name review decision, if any. */
  reviewDecision?: NameReviewDecision | null;
  /** The review's decision and form, shown while the names differ (the server renders it). */
  review?: ReactNode;
  /** How initialRecord's identified name compares with the requested one (completedNameComparison). */
  nameComparison?: NameComparison | null;
};

/** A record as the page shows it, with how its names compare. */
export type ShownRecord = { record: VerificationRecord; nameComparison: NameComparison | null };

/** What the live part is given: the record's naming, and where to report the record it shows. */
export type LiveDetailsProps = Omit<DetailsProps, 'review' | 'nameComparison'> & { onRecord: (shown: ShownRecord) => void };

const loadLiveDetails = () => import('./verification-details-live');
const LiveVerificationDetails = lazy(() => loadLiveDetails().then((module) => ({ default: module.LiveVerificationDetails })));

/** Fetches the live part's code once the browser is idle, so a change shows without waiting for it. */
function usePreloadWhenIdle() {
  useEffect(() => {
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => void loadLiveDetails(), { timeout: 3_000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => void loadLiveDetails(), 1_000);
    return () => clearTimeout(timer);
  }, []);
}

export function VerificationDetails({ id, initialRecord, review, nameComparison = null, ...naming }: DetailsProps) {
  const [live, setLive] = useState(false);
  // The record the live part last showed, for the name review below it.
  const [liveShown, setLiveShown] = useState<ShownRecord | null>(null);
  // The time relative deadlines ("expires in 3 days") are measured from, fixed per render source.
  const [renderedAt] = useState(() => Date.now());
  usePreloadWhenIdle();

  useEffect(() => {
    if (live) return;
    const goLive = () => setLive(true);
    const unsubscribe = onAnnouncedChange((changedId) => {
      if (changedId === null || changedId === id) goLive();
    });
    window.addEventListener('focus', goLive);
    return () => {
      unsubscribe();
      window.removeEventListener('focus', goLive);
    };
  }, [live, id]);

  const view = (
    <DetailsView
      id={id}
      record={initialRecord}
      nameComparison={nameComparison}
      now={renderedAt}
      refreshing={live}
      onRefresh={() => setLive(true)}
      {...naming}
    />
  );
  const shown = (live && liveShown) || { record: initialRecord, nameComparison };
  // The name review sits beside the swap from the first render to the live part, not inside
  // it: a form half typed keeps its text and its answer when the page goes live.
  return (
    <div className="space-y-4">
      {live ? (
        // Until its code has arrived, the page keeps showing what it has, with the refresh spinner.
        <Suspense fallback={view}>
          <LiveVerificationDetails id={id} initialRecord={initialRecord} onRecord={setLiveShown} {...naming} />
        </Suspense>
      ) : (
        view
      )}
      <NameReview {...shown} {...naming}>
        {review}
      </NameReview>
    </div>
  );
}

/** Both names side by side, and the review, while a completed request's names differ. */
export function NameReview({
  record,
  nameComparison,
  requestedName,
  reviewDecision = null,
  children,
}: ShownRecord & { children?: ReactNode } & Pick<DetailsProps, 'requestedName' | 'reviewDecision'>) {
  if (nameComparison?.result !== 'mismatch' || !record.identified_name) return null;
  return (
    <NameMismatchPanel
      requestedName={requestedName ?? record.inputted_name}
      identifiedName={record.identified_name}
      comparison={nameComparison}
      decided={reviewDecision !== null}
    >
      {children}
    </NameMismatchPanel>
  );
}

export type DetailsViewProps = {
  id: string;
  record: VerificationRecord;
  /** How the record's names compare; null while there is nothing to compare. */
  nameComparison: NameComparison | null;
  now: number;
  refreshing: boolean;
  onRefresh: () => void;
  /** Why the record shown is not newer: the live part's warning, rendered there (with its code). */
  problem?: ReactNode;
} & Pick<DetailsProps, 'reviewDecision'>;

/** The record as staff read it; knows nothing of where the data comes from. */
export function DetailsView({ id, record, nameComparison, now, refreshing, onRefresh, problem, reviewDecision = null }: DetailsViewProps) {
  const t = useClientTranslations('detail.details');
  const words = useCodeWords();
  const language = useClientLanguage();
  const method = words.method(record.verification_method);
  const reviewStatus = !reviewDecision ? t('reviewNeeded') : reviewDecision === 'same_person' ? t('reviewedSame') : t('reviewedDifferent');
  const pending = record.status === 'pending';
  // For the record shown (the live one once live), so a completion with another name shows here as it arrives.
  const mismatch = nameComparison?.result === 'mismatch';

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <h1 className="text-2xl font-semibold break-words text-slate-900" translate="no">
            {record.inputted_name}
          </h1>
          <p className="font-mono text-xs break-all text-slate-500">
            <span className="sr-only">{t('idLabel')} </span>
            {id}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <span aria-live="polite" data-testid="status">
            <span className="sr-only">{t('statusLabel')} </span>
            <StatusBadge status={record.status} label={words.status(record.status)} size="lg" />
            {mismatch ? ' ' : null}
            {mismatch ? (
              <span className="ml-1 text-sm font-medium text-amber-900" data-testid="review-status">
                — {reviewStatus}
              </span>
            ) : null}
          </span>
          <Button variant="ghost" size="sm" onClick={onRefresh} disabled={refreshing} className="print:hidden">
            <RefreshCw aria-hidden="true" className={cn('size-4', refreshing && 'animate-spin')} />
            {t('refresh')}
          </Button>
        </div>
      </div>

      {problem}

      {/* The status is in the heading above: once on the page. */}
      <dl className="divide-y divide-slate-100 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        <Row label={t('requestedName')} userData>
          {record.inputted_name}
        </Row>
        <Row label={t('identifiedName')} muted={record.identified_name === null} userData={record.identified_name !== null}>
          {record.identified_name ?? (record.status === 'pending' ? t('notYetIdentified') : t('notIdentified'))}
        </Row>
        {/* "None yet" says something only while the person may still act. */}
        {method !== null || pending ? (
          <Row label={t('method')} muted={method === null}>
            {method ?? t('noneYet')}
          </Row>
        ) : null}
        <Row label={t('verifiedOn')} muted={record.identified_date === null}>
          {record.identified_date ? <LocalTime iso={record.identified_date} /> : t('notCompleted')}
        </Row>
        {record.failed_reason !== null || record.status === 'failed' ? (
          <Row label={t('failureReason')} userData={record.failed_reason !== null}>
            {/* The service's own words, as it reported them. */}
            {record.failed_reason ?? t('noReason')}
          </Row>
        ) : null}
        <Row label={t('purpose')}>
          {isPredefinedPurpose(record.purpose) ? (
            words.purpose(record.purpose)
          ) : (
            <>
              <span translate="no">{record.purpose}</span>
              <span className="ml-1 text-slate-500">{t('custom')}</span>
            </>
          )}
        </Row>
        {pending ? (
          <Row label={t('linkValidUntil')}>
            <Deadline iso={record.access_expires_at} now={now} />
          </Row>
        ) : (
          // Where the link stands once the request is finished: no date to read, it simply no longer works.
          <Row label={t('link')} muted>
            {t('linkClosed', { status: words.status(record.status).toLocaleLowerCase(language) })}
          </Row>
        )}
        <Row label={t('keptUntil')}>
          <span className="space-x-1">
            <LocalTime iso={record.kept_until} />
            <span className="text-slate-600" suppressHydrationWarning>
              ({isPast(record.kept_until, now) ? t('duePurge') : t('purgedIn', { when: relativeTime(record.kept_until, now, language) })})
            </span>
          </span>
        </Row>
      </dl>
    </div>
  );
}
