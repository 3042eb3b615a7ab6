// The detail page's body once the service has answered: the record with its register entry, the
// not-found page, or the problem explained. Rendered in the page's first flush when the answer
// was quick, or streamed in behind the waiting state when it was not (page.tsx decides).
import { notFound } from 'next/navigation';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { LocalTime } from '@/components/ui/local-time';
import { CopyLinkButton } from '@/components/verifications/copy-link-button';
import { FollowUpLinks } from '@/components/verifications/follow-up-links';
import { NameReviewPanel } from '@/components/verifications/name-review-panel';
import { VerificationDetails } from '@/components/verifications/verification-details';
import { VerificationProblem } from '@/components/verifications/verification-problem';
import { VerificationTimeline } from '@/components/verifications/verification-timeline';
import { recordAuditUnlessRecent } from '@/lib/audit/audit';
import { can } from '@/lib/auth/roles';
import type { Staff } from '@/lib/auth/session';
import { afterResponse } from '@/lib/platform/after-response';
import { logger } from '@/lib/platform/log';
import { displayTimeZone } from '@/lib/time/display-zone';
import { getVerification, isTransient, VerificationServiceError } from '@/lib/verification-service';
import { describeServiceError } from '@/lib/verification-service/messages';
import type { VerificationRecord } from '@/lib/verification-service/types';
import { channelsLabel } from '@/lib/verifications/channels';
import { languageLabel } from '@/lib/verifications/labels';
import { type NameReview, readNameReviewForPage, reviewSummary } from '@/lib/verifications/name-review';
import { completedNameComparison } from '@/lib/verifications/name-review-labels';
import { getRegisterEntry, type RegisterEntry } from '@/lib/verifications/register-queries';
import { refreshRegisterEntry } from '@/lib/verifications/register-writes';
import { readTimelineForPage, type Timeline } from '@/lib/verifications/timeline';

const log = logger.child({ area: 'verifications' });

/** What one read for the page came to; failures are values, so the promise never rejects. */
export type VerificationRead =
  | {
      record: VerificationRecord;
      entry: RegisterEntry | undefined;
      review: NameReview | undefined;
      timeline: Timeline | undefined;
      /** The zone the timeline's links to audit trail days are in. */
      timeZone: string;
    }
  | { error: unknown };

export async function readVerificationForPage(id: string): Promise<VerificationRead> {
  // The register entry does not depend on the record: read both at once.
  const [read, entry, review, timeline, timeZone] = await Promise.all([
    getVerification(id).then(
      (record) => ({ record }),
      (error: unknown) => ({ error }),
    ),
    getRegisterEntry(id).catch(() => undefined),
    readNameReviewForPage(id),
    readTimelineForPage(id),
    displayTimeZone(),
  ]);
  return 'error' in read ? read : { record: read.record, entry, review, timeline, timeZone };
}

/** Waits for the read inside the page's Suspense boundary, so the frame can go out before it. */
export async function AwaitedVerificationRecord({ id, staff, read }: { id: string; staff: Staff; read: Promise<VerificationRead> }) {
  return <VerificationRecordView id={id} staff={staff} read={await read} />;
}

export function VerificationRecordView({ id, staff, read }: { id: string; staff: Staff; read: VerificationRead }) {
  if ('error' in read) {
    const { error } = read;
    if (error instanceof VerificationServiceError && error.kind === 'not_found') notFound();
    if (!(error instanceof VerificationServiceError))
      log.error({ err: error, verificationId: id }, 'reading a verification failed unexpectedly');
    const { title, message } = describeServiceError(error, 'read');
    const kind = error instanceof VerificationServiceError ? error.kind : 'unexpected';
    // A failure of our own is worth another try too: it may not happen again.
    const transient = kind === 'unexpected' || isTransient(kind);
    return (
      <VerificationProblem
        kind={kind}
        title={title}
        message={message}
        id={id}
        retryHref={transient ? `/verifications/${encodeURIComponent(id)}` : undefined}
      />
    );
  }
  const { record, entry, review, timeline } = read;

  // Written once the page has gone out; neither changes what it shows. Live updates re-render
  // this page: one view per minute and person is the useful trace.
  afterResponse(async () => {
    await recordAuditUnlessRecent({ actorId: staff.id, action: 'verification.viewed', target: { type: 'verification', id } }, 60_000);
    await refreshRegisterEntry(id, record);
  });
  const linkUsable =
    can(staff.role, 'link:copy') && entry?.link && record.status === 'pending' && new Date(record.access_expires_at) > new Date();

  return (
    <div className="space-y-6">
      <VerificationDetails
        id={id}
        initialRecord={record}
        requestedName={entry?.name}
        // Compared here rather than in the browser: the comparison's tables stay out of the page's JavaScript.
        nameComparison={completedNameComparison(record.status, entry?.name ?? record.inputted_name, record.identified_name)}
        reviewDecision={review?.decision ?? null}
        // Only a request in the register can be reviewed: its requested name is the dashboard's own.
        review={
          entry ? (
            <NameReviewPanel verificationId={id} review={reviewSummary(review)} canReview={can(staff.role, 'verification:review')} />
          ) : (
            <p className="text-sm text-slate-600">This request was not created from this dashboard, so no decision can be recorded here.</p>
          )
        }
      />
      {entry ? <FollowUpLinks id={id} status={record.status} canCreate={can(staff.role, 'verification:create')} /> : null}
      {entry ? (
        <Card>
          <CardHeader>
            <h2 className="text-base font-semibold text-slate-900">Request</h2>
          </CardHeader>
          <CardBody className="space-y-4 text-sm">
            <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-3">
              <div>
                <dt className="text-slate-600">Created</dt>
                <dd className="text-slate-900">
                  <LocalTime iso={entry.createdAt.toISOString()} />
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Language</dt>
                <dd className="text-slate-900">{languageLabel(entry.language)}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Sent by</dt>
                <dd className="text-slate-900">{channelsLabel(entry)}</dd>
              </div>
            </dl>
            {linkUsable && entry.link ? (
              <div className="flex flex-wrap items-center gap-3">
                <code className="min-w-0 flex-1 rounded bg-slate-100 px-2 py-1.5 font-mono text-xs break-all">{entry.link}</code>
                <CopyLinkButton link={entry.link} verificationId={id} size="sm" />
              </div>
            ) : entry.link && can(staff.role, 'link:copy') ? (
              <p className="text-slate-600">The shareable link can no longer be used.</p>
            ) : null}
          </CardBody>
        </Card>
      ) : null}
      <VerificationTimeline
        verificationId={id}
        timeline={timeline}
        renderedAt={Date.now()}
        timeZone={read.timeZone}
        canReadAuditTrail={can(staff.role, 'audit:read')}
      />
    </div>
  );
}
