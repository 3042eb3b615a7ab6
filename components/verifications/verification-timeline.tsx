// The "History" card of a detail page: what happened to the request, oldest first, each entry
// with its time and the staff member who acted. Those allowed to read the audit trail get links
// to it, narrowed to this request (and, per entry, to that day). Renders on the server; the
// detail page is rendered again when the live stream announces a change (components/live/live-updates.tsx).

import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { TimeText } from '@/components/ui/time-text';
import { auditTrailHrefFor, auditTrailQuery } from '@/lib/audit-trail/filter';
import { dayIn } from '@/lib/time/display-time';
import { describeTimelineEntry } from '@/lib/verifications/timeline/labels';
import type { Timeline } from '@/lib/verifications/timeline/timeline.server';

const linkClass = 'font-medium text-indigo-700 underline underline-offset-2 hover:no-underline';

/**
 * The audit trail narrowed to this request on the day of `at`: where one entry is found. The
 * audit trail reads its dates in the same display zone, so the day is taken in that zone.
 */
function auditDayHref(verificationId: string, at: Date, timeZone: string): string {
  const day = dayIn(at, timeZone);
  return `/audit${auditTrailQuery({ verification: verificationId, from: day, to: day })}`;
}

export function VerificationTimeline({
  verificationId,
  timeline,
  renderedAt,
  timeZone,
  canReadAuditTrail,
}: {
  verificationId: string;
  /** Undefined when it could not be read: the page shows the record regardless. */
  timeline: Timeline | undefined;
  renderedAt: number;
  /** The display zone the server reads date filters in (lib/time/display-zone.ts). */
  timeZone: string;
  canReadAuditTrail: boolean;
}) {
  const auditHref = auditTrailHrefFor(verificationId);
  return (
    <Card aria-labelledby="history-heading" data-testid="timeline">
      <CardHeader>
        <h2 id="history-heading" className="text-base font-semibold text-slate-900">
          History
        </h2>
      </CardHeader>
      <CardBody className="space-y-4 text-sm">
        {!timeline ? (
          <p className="text-slate-600">The history could not be read just now. Reload the page to try again.</p>
        ) : timeline.entries.length === 0 ? (
          <p className="text-slate-600">Nothing has been recorded for this request on this dashboard.</p>
        ) : (
          <>
            {timeline.truncated ? (
              <p className="text-slate-600">
                Only the latest entries are shown.{' '}
                {canReadAuditTrail ? (
                  <Link href={auditHref} className={linkClass}>
                    Older entries are in the audit trail
                  </Link>
                ) : (
                  'Older entries are in the audit trail, which administrators can read.'
                )}
              </p>
            ) : null}
            <ol className="space-y-3 border-l border-slate-200 pl-4">
              {timeline.entries.map((entry) => {
                const text = describeTimelineEntry(entry);
                return (
                  <li key={entry.key} className="relative space-y-0.5" data-kind={entry.kind}>
                    <span
                      aria-hidden="true"
                      className="absolute top-1.5 -left-[21px] size-2.5 rounded-full bg-slate-300 ring-2 ring-white"
                    />
                    <p className="break-words text-slate-900">
                      <span className="font-medium">{text.title}</span>
                      {text.by ? <span className="text-slate-700"> {text.by}</span> : null}
                    </p>
                    {text.detail ? <p className="text-slate-600">{text.detail}</p> : null}
                    <p className="flex flex-wrap items-baseline gap-x-3">
                      <TimeText
                        iso={entry.at.toISOString()}
                        timeZone={timeZone}
                        relativeFrom={renderedAt}
                        className="text-sm text-slate-600"
                      />
                      {canReadAuditTrail && entry.inAuditTrail ? (
                        <Link href={auditDayHref(verificationId, entry.at, timeZone)} className={`text-xs ${linkClass}`}>
                          In the audit trail<span className="sr-only">: {text.title}</span>
                        </Link>
                      ) : null}
                    </p>
                  </li>
                );
              })}
            </ol>
          </>
        )}
        {canReadAuditTrail ? (
          <p>
            <Link href={auditHref} className={linkClass}>
              See in the audit trail
            </Link>
          </p>
        ) : null}
      </CardBody>
    </Card>
  );
}
