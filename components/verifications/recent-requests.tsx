// "Recent requests": the register of requests created from this dashboard, as filtered, with
// the requested name beside the identified one, the deadlines that need someone's attention, who
// created each request, who has it now, when it was completed, and the follow-ups between requests.

import { useLocale, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { DataTable, idTextClasses } from '@/components/ui/data-table';
import { Check, CircleX, Hourglass, Link2, Mail, MessageSquare, TriangleAlert, UserCheck } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { LinkPendingHint } from '@/components/ui/link-pending-hint';
import { TimeText } from '@/components/ui/time-text';
import { isLanguage } from '@/lib/i18n/languages';
import { relativeTime } from '@/lib/time/display-time';
import { isPredefinedPurpose } from '@/lib/verifications/labels';
import { isExpiringSoon, isStuck, type RegisterView } from '@/lib/verifications/register/filter';
import { registerStatus } from '@/lib/verifications/register/purged';
import type { RegisterEntry, RegisterListEntry } from '@/lib/verifications/register/queries.server';
import type { NameReviewDecision } from '@/lib/verifications/review/labels';
import { compareNames } from '@/lib/verifications/review/name-match';
import { CopyLinkButton } from './copy-link-button';
import { StatusBadge } from './status-badge';

function Channels({ entry }: { entry: RegisterEntry }) {
  const t = useTranslations('register.table');
  const channels = [
    entry.shareableLink && { icon: Link2, label: t('channel.link') },
    entry.emailNotification && { icon: Mail, label: t('channel.email') },
    entry.smsNotification && { icon: MessageSquare, label: t('channel.sms') },
  ].filter((c): c is { icon: typeof Link2; label: string } => Boolean(c));
  if (channels.length === 0) return <span className="text-slate-500">{t('noChannel')}</span>;
  return (
    <ul className="inline-flex flex-wrap gap-1.5">
      {channels.map(({ icon: Icon, label }) => (
        <li key={label} className="inline-flex items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
          <Icon aria-hidden="true" className="size-3.5" />
          {label}
        </li>
      ))}
    </ul>
  );
}

/** The outcome of a name review, in words and an icon (never colour alone). */
function ReviewedBadge({ decision }: { decision: NameReviewDecision }) {
  const t = useTranslations('register.table');
  const samePerson = decision === 'same_person';
  const Icon = samePerson ? UserCheck : CircleX;
  return (
    <span
      data-name-review={decision}
      className={
        samePerson
          ? 'inline-flex items-center gap-1 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-900 ring-1 ring-emerald-300 ring-inset'
          : 'inline-flex items-center gap-1 rounded bg-rose-50 px-1.5 py-0.5 text-xs font-medium text-rose-900 ring-1 ring-rose-300 ring-inset'
      }
    >
      <Icon aria-hidden="true" className={samePerson ? 'size-3.5 text-emerald-700' : 'size-3.5 text-rose-700'} />
      {t(`reviewed.${decision}`)}
    </span>
  );
}

/**
 * The identified name, and for a completed request whether it fits the requested one: a
 * difference waits for a review ("Name differs") until staff decide, then shows the decision.
 */
function IdentifiedName({ entry }: { entry: RegisterListEntry }) {
  const t = useTranslations('register.table');
  const tReason = useTranslations('detail.mismatch.reasons');
  if (!entry.identifiedName) {
    // A completed row without a name was completed before the register kept names (or its
    // update is still on the way); the detail page reads it from the service.
    const text = entry.status === 'pending' ? t('notYetIdentified') : entry.status === 'completed' ? t('notRecorded') : t('notIdentified');
    return <span className="text-slate-500">{text}</span>;
  }
  // Only a completed verification vouches for the name; anything else is shown as it is.
  const comparison = entry.status === 'completed' ? compareNames(entry.name, entry.identifiedName) : null;
  const why = comparison?.why;
  const reason = why
    ? tReason(why.code, { requested: 'requested' in why ? why.requested : '', identified: 'identified' in why ? why.identified : '' })
    : '';
  return (
    <div className="space-y-1">
      <div className="font-medium text-slate-900" translate="no">
        {entry.identifiedName}
      </div>
      {comparison?.result === 'mismatch' ? (
        // Icon and words, never colour alone; the reason is visible too, for touch and keyboard users.
        <div data-name-match="mismatch" title={reason} className="space-y-0.5">
          {entry.reviewDecision ? (
            <ReviewedBadge decision={entry.reviewDecision} />
          ) : (
            <span className="inline-flex items-center gap-1 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-950 ring-1 ring-amber-300 ring-inset">
              <TriangleAlert aria-hidden="true" className="size-3.5 text-amber-700" />
              {t('nameDiffers')}
            </span>
          )}
          <p className="text-xs text-slate-600">{reason}</p>
        </div>
      ) : comparison?.result === 'match' ? (
        <span data-name-match="match" title={reason} className="inline-flex items-center gap-1 text-xs text-emerald-800">
          <Check aria-hidden="true" className="size-3.5" />
          <span className="sr-only">{t('namesMatch', { reason })}</span>
        </span>
      ) : null}
    </div>
  );
}

/** An opaque id short enough for a table's line: its start (ids are long and unique early on). */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/**
 * The follow-ups between requests: a request that follows an earlier one up says so, and the
 * earlier one says which request followed it, so two rows for the same person read as a story,
 * not as a duplicate.
 */
function FollowUps({ entry }: { entry: RegisterListEntry }) {
  const t = useTranslations('register.table');
  const requestLink = (id: string) => (chunks: ReactNode) => (
    <Link
      href={`/verifications/${encodeURIComponent(id)}`}
      className="font-mono text-indigo-700 underline underline-offset-2"
      aria-label={t('requestLink', { id })}
      title={id}
    >
      {chunks}
    </Link>
  );
  if (!entry.followsVerificationId && !entry.followedUpBy) return null;
  return (
    <div className="mt-1 space-y-0.5 text-xs text-slate-600">
      {entry.followsVerificationId ? (
        <p data-follows={entry.followsVerificationId}>
          {t.rich('followsUp', { id: shortId(entry.followsVerificationId), link: requestLink(entry.followsVerificationId) })}
        </p>
      ) : null}
      {entry.followedUpBy ? (
        <p data-followed-up-by={entry.followedUpBy}>
          {t.rich('followedUpBy', { id: shortId(entry.followedUpBy), link: requestLink(entry.followedUpBy) })}
        </p>
      ) : null}
    </div>
  );
}

/** "expires in 5 hours": phrased as the detail page phrases the same deadline (lib/time). */
export function expiresInText(expiresAt: Date, now: Date): string {
  return `expires ${relativeTime(expiresAt, now)}`;
}

function Deadline({ entry, now }: { entry: RegisterEntry; now: Date }) {
  const t = useTranslations('register.table');
  const locale = useLocale();
  if (isExpiringSoon(entry, now) && entry.accessExpiresAt) {
    return (
      <p className="mt-1 flex items-center gap-1 text-xs font-medium whitespace-nowrap text-amber-900">
        <Hourglass aria-hidden="true" className="size-3.5" />
        {t('expires', { when: relativeTime(entry.accessExpiresAt, now, isLanguage(locale) ? locale : undefined) })}
      </p>
    );
  }
  if (isStuck(entry, now)) return <p className="mt-1 text-xs text-slate-600">{t('pastHalf')}</p>;
  return null;
}

export function RecentRequests({
  entries,
  now,
  showLinks,
  canCreate,
  caption,
  view = 'all',
  filtered = false,
  timeZone,
}: {
  entries: RegisterListEntry[];
  now: Date;
  /** Only roles allowed to copy links see them. */
  showLinks: boolean;
  canCreate: boolean;
  /** What the table lists, for screen readers (which filters, which order, which page). */
  caption: string;
  view?: RegisterView;
  /** Whether filters narrowed the list (the empty state then says so instead of "nothing yet"). */
  filtered?: boolean;
  /** The zone the page shows times in (lib/time/display-zone.ts). */
  timeZone: string;
}) {
  const t = useTranslations('register');
  const tCommon = useTranslations('common');
  const locale = useLocale();
  if (entries.length === 0 && (filtered || view !== 'all')) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <p className="font-medium text-slate-900">{filtered ? t('empty.all') : t(`empty.${view}`)}</p>
        {filtered ? (
          <Link href="/" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline underline-offset-2">
            {t('empty.clear')}
          </Link>
        ) : null}
      </div>
    );
  }
  if (entries.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <p className="font-medium text-slate-900">{t('empty.nothingYet')}</p>
        <p className="mt-1 text-sm text-slate-600">{canCreate ? t('empty.createdByYou') : t('empty.createdByTeam')}</p>
        {canCreate ? (
          <Link href="/verifications/new" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline underline-offset-2">
            {t('empty.create')}
          </Link>
        ) : null}
      </div>
    );
  }
  return (
    <DataTable
      caption={caption}
      columns={[
        t('table.requestedName'),
        t('table.identifiedName'),
        t('table.purpose'),
        t('table.channels'),
        t('table.created'),
        t('table.createdBy'),
        t('table.assignee'),
        t('table.status'),
        t('table.completed'),
        <span key="link" className="sr-only">
          {t('table.link')}
        </span>,
      ]}
    >
      {entries.map((entry) => {
        // A link is worth copying only while the person can still use it.
        // A predefined purpose in the reader's words; one described by hand, as it was typed.
        const purpose = isPredefinedPurpose(entry.purpose) ? tCommon(`purpose.${entry.purpose}`) : entry.purpose;
        const shownStatus = registerStatus(entry, now);
        const linkUsable = showLinks && entry.link && (!entry.accessExpiresAt || entry.accessExpiresAt > now) && entry.status === 'pending';
        return (
          <tr key={entry.verificationId} className="align-top hover:bg-slate-50">
            <td data-label={t('table.requestedName')} className="px-4 py-3">
              <Link
                href={`/verifications/${encodeURIComponent(entry.verificationId)}`}
                className="font-medium text-indigo-700 hover:underline"
              >
                <span translate="no">{entry.name}</span>
                <LinkPendingHint className="ml-1.5 align-[-2px]" />
              </Link>
              <div>
                <span className={`${idTextClasses} text-slate-500`}>{entry.verificationId}</span>
              </div>
              <FollowUps entry={entry} />
            </td>
            <td data-label={t('table.identifiedName')} className="max-w-64 px-4 py-3 break-words">
              <IdentifiedName entry={entry} />
            </td>
            <td data-label={t('table.purpose')} className="max-w-72 px-4 py-3 break-words text-slate-700">
              {/* At most two lines, so one long purpose does not make its row the page's tallest;
                  the whole text stays in the cell for screen readers and in the title on hover. */}
              <span className="line-clamp-2" title={purpose} translate={isPredefinedPurpose(entry.purpose) ? undefined : 'no'}>
                {purpose}
              </span>
            </td>
            <td data-label={t('table.channels')} className="px-4 py-3">
              <Channels entry={entry} />
            </td>
            {/* Date over time: with the assignee's column, one-line moments made the table wider than 1440 px. */}
            <td data-label={t('table.created')} className="px-4 py-3 text-slate-700">
              <TimeText
                stacked
                iso={entry.createdAt.toISOString()}
                timeZone={timeZone}
                language={isLanguage(locale) ? locale : undefined}
              />
            </td>
            <td data-label={t('table.createdBy')} className="max-w-40 px-4 py-3 break-words text-slate-700">
              {entry.createdByName === null ? (
                <span className="text-slate-500">{t('table.deletedAccount')}</span>
              ) : (
                <span translate="no">{entry.createdByName}</span>
              )}
            </td>
            {/* Narrow: a name wraps rather than widening a table that already scrolls at 1024 px. */}
            <td data-label={t('table.assignee')} className="max-w-32 px-4 py-3 break-words text-slate-700">
              {entry.assigneeName === null ? (
                <span className="text-slate-500">{t('table.unassigned')}</span>
              ) : (
                <span translate="no">{entry.assigneeName}</span>
              )}
            </td>
            <td data-label={t('table.status')} className="px-4 py-3">
              {/* "Purged" once kept_until has passed, until the register's own retention removes the row. */}
              <StatusBadge status={shownStatus} label={tCommon(`status.${shownStatus}`)} />
              <Deadline entry={entry} now={now} />
            </td>
            <td data-label={t('table.completed')} className="px-4 py-3 text-slate-700">
              {entry.completedAt ? (
                <TimeText
                  stacked
                  iso={entry.completedAt.toISOString()}
                  timeZone={timeZone}
                  language={isLanguage(locale) ? locale : undefined}
                />
              ) : (
                <span className="text-slate-500">{t('table.notCompleted')}</span>
              )}
            </td>
            <td className="px-4 py-3 text-right">
              {linkUsable && entry.link ? (
                <CopyLinkButton
                  link={entry.link}
                  verificationId={entry.verificationId}
                  size="sm"
                  accessibleLabel={t('table.copyLink', { name: entry.name })}
                />
              ) : null}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
