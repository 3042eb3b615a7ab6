// The "History" card of a detail page: what happened to the request, oldest first, each entry
// with its time and the staff member who acted. Who took the request, gave it to whom or handed
// it back reads as one sentence naming them (names marked translate="no": they are data). A note is an entry of its own (who, when, what it
// corrects) with a link to it in the Notes section, which alone shows what notes say. Those allowed to read the audit trail get links
// to it, narrowed to this request (and, per entry, to that day). Renders on the server; the
// detail page is rendered again when the live stream announces a change (components/live/live-updates.tsx).

import { useLocale, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { TimeText } from '@/components/ui/time-text';
import { auditTrailHrefFor, auditTrailQuery } from '@/lib/audit-trail/filter';
import { isLanguage, type Language } from '@/lib/i18n/languages';
import { dayIn, formatDateTime, formatTime } from '@/lib/time/display-time';
import type { RequestChannels } from '@/lib/verifications/channels';
import { serviceNoticeOf } from '@/lib/verifications/timeline/service-notices';
import type { Timeline, TimelineEntry, TimelineStaff } from '@/lib/verifications/timeline/timeline.server';

const linkClass = 'font-medium text-indigo-700 underline underline-offset-2 hover:no-underline';

/**
 * The audit trail narrowed to this request on the day of `at`: where one entry is found. The
 * audit trail reads its dates in the same display zone, so the day is taken in that zone.
 */
function auditDayHref(verificationId: string, at: Date, timeZone: string): string {
  const day = dayIn(at, timeZone);
  return `/audit${auditTrailQuery({ verification: verificationId, from: day, to: day })}`;
}

/** The notices from the service that have words of their own; any other shows as its type. */
const KNOWN_STATUSES = new Set(['pending', 'completed', 'expired', 'failed']);

type EntryText = {
  title: ReactNode;
  by: string | null;
  detail: string | null;
  /** The service's own words for a failure: shown as it gave them, not translated. */
  reason?: string | null;
  /** Where the Notes section shows the note. */
  noteHref?: string | null;
};

/**
 * The words of each kind of entry: what happened, who did it, and what else is worth knowing.
 * Times inside the words are in the page's display zone.
 */
function useDescribeEntry(timeZone: string, language: Language | undefined): (entry: TimelineEntry) => EntryText {
  const t = useTranslations('detail');
  const tCommon = useTranslations('common');
  // A folded line's span: clock times when it ends on the day it began (the date is beside it).
  const span = (from: Date, to: Date) => ({
    first: formatTime(from, timeZone, language),
    last: dayIn(from, timeZone) === dayIn(to, timeZone) ? formatTime(to, timeZone, language) : formatDateTime(to, timeZone, language),
  });
  // A status the service may add later reads as its code rather than as a missing message.
  const status = (code: string) => (KNOWN_STATUSES.has(code) ? tCommon(`status.${code}`) : code);
  // An account that no longer exists is named so: its id means nothing to a reader.
  const by = (staff: TimelineStaff | null) => (staff ? t('timeline.by', { name: staff.name ?? t('timeline.formerColleague') }) : null);
  // A person inside a sentence: their name as data, or our words for an account that is gone
  // (capitalised when the sentence starts with them).
  const person =
    (staff: TimelineStaff | null, leading = false) =>
    () =>
      staff?.name ? (
        <span translate="no">{staff.name}</span>
      ) : leading ? (
        t('timeline.formerColleagueLeading')
      ) : (
        t('timeline.formerColleague')
      );
  const assigned = (entry: Extract<TimelineEntry, { kind: 'assigned' }>): EntryText => {
    const names = { actor: person(entry.staff, true), assignee: person(entry.assignee), previous: person(entry.previous) };
    if (!entry.staff) return { title: t.rich('timeline.assignment.assigned', names), by: null, detail: null };
    const toThemselves = entry.assignee?.id === entry.staff.id;
    const key = toThemselves
      ? entry.previous
        ? 'timeline.assignment.tookOver'
        : 'timeline.assignment.took'
      : entry.previous
        ? 'timeline.assignment.passed'
        : 'timeline.assignment.gave';
    return { title: t.rich(key, names), by: null, detail: null };
  };
  const unassigned = (entry: Extract<TimelineEntry, { kind: 'unassigned' }>): EntryText => {
    const names = { actor: person(entry.staff, true), previous: person(entry.previous) };
    // A change to the assignee's account did it: that is the news; who changed the account follows.
    if (entry.reason && entry.previous) {
      return { title: t.rich(`timeline.assignment.released.${entry.reason}`, names), by: by(entry.staff), detail: null };
    }
    if (!entry.staff || !entry.previous) return { title: t('timeline.assignment.unassigned'), by: by(entry.staff), detail: null };
    const key = entry.previous.id === entry.staff.id ? 'timeline.assignment.handedBack' : 'timeline.assignment.withdrew';
    return { title: t.rich(key, names), by: null, detail: null };
  };
  const channels = (sent: RequestChannels) => {
    const names = [
      sent.shareableLink ? t('channels.link') : null,
      sent.emailNotification ? t('channels.email') : null,
      sent.smsNotification ? t('channels.sms') : null,
    ].filter((name): name is string => name !== null);
    return names.length > 0 ? names.join(', ') : t('channels.none');
  };
  return (entry) => {
    switch (entry.kind) {
      case 'created': {
        const parts = [
          entry.channels ? t('timeline.sentBy', { channels: channels(entry.channels) }) : null,
          entry.language
            ? t('timeline.language', { language: isLanguage(entry.language) ? t(`languages.${entry.language}`) : entry.language })
            : null,
        ].filter((part): part is string => part !== null);
        return { title: t('timeline.created'), by: by(entry.staff), detail: parts.length > 0 ? parts.join(' · ') : null };
      }
      case 'status_changed':
        return {
          title: t('timeline.statusChanged', { status: status(entry.status) }),
          by: null,
          detail: [
            entry.previous ? t('timeline.was', { status: status(entry.previous) }) : null,
            entry.viaWebhook ? t('timeline.viaWebhook') : t('timeline.seenOnRead'),
          ]
            .filter((part): part is string => part !== null)
            .join(' · '),
          reason: entry.failureReason,
        };
      case 'service_notice': {
        if (entry.count > 1) {
          return {
            title: t('timeline.noticesFolded', { count: entry.count, ...span(entry.at, entry.until) }),
            by: null,
            detail: t('timeline.noticesFoldedDetail'),
          };
        }
        const notice = serviceNoticeOf(entry.eventType);
        const event = notice ? t(`timeline.notices.${notice}`) : entry.eventType;
        return { title: t('timeline.notice', { event }), by: null, detail: t('timeline.noticeDetail') };
      }
      case 'viewed':
        return {
          title: entry.count > 1 ? t('timeline.viewedTimes', { count: entry.count, ...span(entry.at, entry.until) }) : t('timeline.viewed'),
          by: by(entry.staff),
          detail: null,
        };
      case 'note_added':
        return {
          title: entry.corrects ? t('timeline.correctionAdded') : t('timeline.noteAdded'),
          by: by(entry.staff),
          detail: entry.corrects
            ? entry.corrects.at
              ? t('timeline.correctsNoteOf', { time: formatDateTime(entry.corrects.at, timeZone, language) })
              : t('timeline.correctsEarlierNote')
            : null,
          noteHref: entry.noteId ? `#note-${entry.noteId}` : null,
        };
      case 'link_copied':
        return { title: t('timeline.linkCopied'), by: by(entry.staff), detail: null };
      case 'reviewed':
        return {
          title: entry.decision
            ? t('timeline.reviewed', { decision: tCommon(`nameReviewDecision.${entry.decision}`) })
            : t('timeline.reviewRecorded'),
          by: by(entry.staff),
          detail: entry.previous ? t('timeline.replaces', { decision: tCommon(`nameReviewDecision.${entry.previous}`) }) : null,
        };
      case 'assigned':
        return assigned(entry);
      case 'unassigned':
        return unassigned(entry);
      case 'other':
        // The only other action the audit trail keeps about one request; anything newer is named generically.
        return {
          title: entry.action === 'verification.removed' ? t('timeline.removed') : t('timeline.otherAction'),
          by: by(entry.staff),
          detail: null,
        };
    }
  };
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
  const t = useTranslations('detail.timeline');
  const locale = useLocale();
  const language = isLanguage(locale) ? locale : undefined;
  const describeEntry = useDescribeEntry(timeZone, language);
  const auditHref = auditTrailHrefFor(verificationId);
  return (
    <Card aria-labelledby="history-heading" data-testid="timeline">
      <CardHeader>
        <h2 id="history-heading" className="text-base font-semibold text-slate-900">
          {t('heading')}
        </h2>
      </CardHeader>
      <CardBody className="space-y-4 text-sm">
        {!timeline ? (
          <p className="text-slate-600">{t('unreadable')}</p>
        ) : timeline.entries.length === 0 ? (
          <p className="text-slate-600">{t('empty')}</p>
        ) : (
          <>
            {timeline.truncated ? (
              <p className="text-slate-600">
                {t('truncated')}{' '}
                {canReadAuditTrail ? (
                  <Link href={auditHref} className={linkClass}>
                    {t('olderLink')}
                  </Link>
                ) : (
                  t('olderAdminsOnly')
                )}
              </p>
            ) : null}
            <ol className="space-y-3 border-l border-slate-200 pl-4">
              {timeline.entries.map((entry) => {
                const text = describeEntry(entry);
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
                    {text.reason ? (
                      <p className="break-words text-slate-600">
                        {t('failureReason')}{' '}
                        <span className="text-slate-900" translate="no">
                          {text.reason}
                        </span>
                      </p>
                    ) : null}
                    <p className="flex flex-wrap items-baseline gap-x-3">
                      <TimeText
                        iso={entry.at.toISOString()}
                        timeZone={timeZone}
                        language={language}
                        relativeFrom={renderedAt}
                        className="text-sm text-slate-600"
                      />
                      {text.noteHref ? (
                        <a href={text.noteHref} className={`text-xs ${linkClass}`}>
                          {t('readNote')}
                          <span className="sr-only">: {text.title}</span>
                        </a>
                      ) : null}
                      {canReadAuditTrail && entry.inAuditTrail ? (
                        <Link href={auditDayHref(verificationId, entry.at, timeZone)} className={`text-xs ${linkClass}`}>
                          {t('inAuditTrail')}
                          <span className="sr-only">: {text.title}</span>
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
              {t('seeInAuditTrail')}
            </Link>
          </p>
        ) : null}
      </CardBody>
    </Card>
  );
}
