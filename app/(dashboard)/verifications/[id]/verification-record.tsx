// The detail page's body once the service has answered: the record with its register entry, the
// not-found page, or the problem explained. Rendered in the page's first flush when the answer
// was quick, or streamed in behind the waiting state when it was not (page.tsx decides).
import { notFound } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { EvidencePackLinks } from '@/components/verifications/evidence-pack-links';
import { FollowUpLinks } from '@/components/verifications/follow-up-links';
import { AssignmentPanelOnDemand, NameReviewPanelOnDemand } from '@/components/verifications/loaded-on-demand';
import { PurgeNotice } from '@/components/verifications/purge-notice';
import { PurgedVerification } from '@/components/verifications/purged-verification';
import { RequestFacts } from '@/components/verifications/request-facts';
import { VerificationDetails } from '@/components/verifications/verification-details';
import { VerificationNotesSection } from '@/components/verifications/verification-notes';
import { VerificationProblem } from '@/components/verifications/verification-problem';
import { VerificationTimeline } from '@/components/verifications/verification-timeline';
import type { Staff } from '@/lib/auth/session';
import { purgedVerificationShown, type VerificationPageRead, verificationShown } from '@/lib/verifications/record/verification-page.server';

/** Waits for the read inside the page's Suspense boundary, so the frame can go out before it. */
export async function AwaitedVerificationRecord({ id, staff, read }: { id: string; staff: Staff; read: Promise<VerificationPageRead> }) {
  return <VerificationRecordView id={id} staff={staff} read={await read} />;
}

/**
 * What the page's client part reads (VerificationDetails, its live part, the name mismatch and the
 * review): only these namespaces travel in the page's payload.
 */
const CLIENT_NAMESPACES = ['detail.details', 'detail.live', 'detail.mismatch', 'common.status', 'common.method', 'common.purpose'];
const REVIEW_NAMESPACES = ['detail.review', 'common.nameReviewDecision'];
const ASSIGNMENT_NAMESPACES = ['detail.assignment'];

export function VerificationRecordView({ id, staff, read }: { id: string; staff: Staff; read: VerificationPageRead }) {
  const t = useTranslations('detail.page');
  if (!read.ok) {
    if (read.purged) {
      // The service has purged it under the retention policy: the register's copy and the history, answered with 200.
      purgedVerificationShown(id, staff);
      const { request, timeline, timeZone, may } = read.purged;
      return (
        <PurgedVerification
          id={id}
          request={request}
          timeZone={timeZone}
          history={
            <>
              {/* The pack is made from the register's copy, which outlives the service's purge. */}
              <EvidencePackLinks id={id} status={request.lastStatus} />
              <VerificationTimeline
                verificationId={id}
                timeline={timeline}
                renderedAt={Date.now()}
                timeZone={timeZone}
                canReadAuditTrail={may.readAuditTrail}
              />
            </>
          }
        />
      );
    }
    if (read.notFound) notFound();
    const { kind, title, message, transient } = read.problem;
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
  verificationShown(id, staff, read);
  const renderedAt = Date.now();

  return (
    <div className="space-y-6">
      <ClientMessagesFor namespaces={read.request ? [...CLIENT_NAMESPACES, ...REVIEW_NAMESPACES] : CLIENT_NAMESPACES}>
        <VerificationDetails
          id={id}
          initialRecord={read.record}
          requestedName={read.requestedName}
          nameComparison={read.nameComparison}
          reviewDecision={read.reviewDecision}
          // Only a request in the register can be reviewed: its requested name is the dashboard's own.
          review={
            read.request ? (
              <NameReviewPanelOnDemand
                verificationId={id}
                review={read.review}
                canReview={read.may.review}
                sameDecision={read.sameDecision}
              />
            ) : (
              <p className="text-sm text-slate-600">{t('notFromDashboard')}</p>
            )
          }
        />
      </ClientMessagesFor>
      <PurgeNotice id={id} record={read.record} now={renderedAt} timeZone={read.timeZone} />
      {read.assignment ? (
        <ClientMessagesFor namespaces={ASSIGNMENT_NAMESPACES}>
          <AssignmentPanelOnDemand verificationId={id} view={read.assignment} />
        </ClientMessagesFor>
      ) : null}
      {read.request ? <FollowUpLinks id={id} status={read.record.status} canCreate={read.may.followUp} timeZone={read.timeZone} /> : null}
      {read.request ? <RequestFacts id={id} facts={read.request} timeZone={read.timeZone} /> : null}
      {/* The pack is made from the register's row: only a request this Desk created has one. */}
      {read.request ? <EvidencePackLinks id={id} status={read.record.status} /> : null}
      {/* Notes belong to the register's row: a request this dashboard did not create has none. */}
      {read.request ? (
        <ClientMessagesFor namespaces={['detail.noteForm']}>
          <VerificationNotesSection
            verificationId={id}
            notes={read.notes}
            canAdd={read.may.note}
            keptUntil={read.request.keptUntil}
            timeZone={read.timeZone}
            renderedAt={renderedAt}
          />
        </ClientMessagesFor>
      ) : null}
      <VerificationTimeline
        verificationId={id}
        timeline={read.timeline}
        renderedAt={Date.now()}
        timeZone={read.timeZone}
        canReadAuditTrail={read.may.readAuditTrail}
      />
    </div>
  );
}
