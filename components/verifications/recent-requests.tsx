// "Recent requests": the register of requests created from this dashboard, as filtered, with
// the requested name beside the identified one and the deadlines that need someone's attention.

import { DataTable, idTextClasses } from '@/components/ui/data-table';
import { Check, CircleX, Hourglass, Link2, Mail, MessageSquare, TriangleAlert, UserCheck } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { LinkPendingHint } from '@/components/ui/link-pending-hint';
import { TimeText } from '@/components/ui/time-text';
import { relativeTime } from '@/lib/time/display-time';
import { purposeLabel } from '@/lib/verifications/labels';
import { isExpiringSoon, isStuck, type RegisterView } from '@/lib/verifications/register/filter';
import type { RegisterEntry, RegisterListEntry } from '@/lib/verifications/register/queries.server';
import { NAME_REVIEW_DECISION_LABELS, type NameReviewDecision } from '@/lib/verifications/review/labels';
import { compareNames } from '@/lib/verifications/review/name-match';
import { CopyLinkButton } from './copy-link-button';
import { StatusBadge } from './status-badge';

function Channels({ entry }: { entry: RegisterEntry }) {
  const channels = [
    entry.shareableLink && { icon: Link2, label: 'Link' },
    entry.emailNotification && { icon: Mail, label: 'E-mail' },
    entry.smsNotification && { icon: MessageSquare, label: 'SMS' },
  ].filter((c): c is { icon: typeof Link2; label: string } => Boolean(c));
  if (channels.length === 0) return <span className="text-slate-500">None</span>;
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
      Reviewed: {NAME_REVIEW_DECISION_LABELS[decision].toLowerCase()}
    </span>
  );
}

/**
 * The identified name, and for a completed request whether it fits the requested one: a
 * difference waits for a review ("Name differs") until staff decide, then shows the decision.
 */
function IdentifiedName({ entry }: { entry: RegisterListEntry }) {
  if (!entry.identifiedName) {
    // A completed row without a name was completed before the register kept names (or its
    // update is still on the way); the detail page reads it from the service.
    const text = entry.status === 'pending' ? 'Not yet identified' : entry.status === 'completed' ? 'Not recorded here' : 'Not identified';
    return <span className="text-slate-500">{text}</span>;
  }
  // Only a completed verification vouches for the name; anything else is shown as it is.
  const comparison = entry.status === 'completed' ? compareNames(entry.name, entry.identifiedName) : null;
  return (
    <div className="space-y-1">
      <div className="font-medium text-slate-900">{entry.identifiedName}</div>
      {comparison?.result === 'mismatch' ? (
        // Icon and words, never colour alone; the reason is visible too, for touch and keyboard users.
        <div data-name-match="mismatch" title={comparison.reason} className="space-y-0.5">
          {entry.reviewDecision ? (
            <ReviewedBadge decision={entry.reviewDecision} />
          ) : (
            <span className="inline-flex items-center gap-1 rounded bg-amber-50 px-1.5 py-0.5 text-xs font-medium text-amber-950 ring-1 ring-amber-300 ring-inset">
              <TriangleAlert aria-hidden="true" className="size-3.5 text-amber-700" />
              Name differs
            </span>
          )}
          <p className="text-xs text-slate-600">{comparison.reason}</p>
        </div>
      ) : comparison?.result === 'match' ? (
        <span data-name-match="match" title={comparison.reason} className="inline-flex items-center gap-1 text-xs text-emerald-800">
          <Check aria-hidden="true" className="size-3.5" />
          <span className="sr-only">Names match: {comparison.reason}</span>
        </span>
      ) : null}
    </div>
  );
}

/** "expires in 5 hours": phrased as the detail page phrases the same deadline (lib/time). */
export function expiresInText(expiresAt: Date, now: Date): string {
  return `expires ${relativeTime(expiresAt, now)}`;
}

function Deadline({ entry, now }: { entry: RegisterEntry; now: Date }) {
  if (isExpiringSoon(entry, now) && entry.accessExpiresAt) {
    return (
      <p className="mt-1 flex items-center gap-1 text-xs font-medium whitespace-nowrap text-amber-900">
        <Hourglass aria-hidden="true" className="size-3.5" />
        {expiresInText(entry.accessExpiresAt, now)}
      </p>
    );
  }
  if (isStuck(entry, now)) return <p className="mt-1 text-xs text-slate-600">Past half its validity</p>;
  return null;
}

const EMPTY_MESSAGES: Record<RegisterView, string> = {
  all: 'No requests match these filters.',
  expiring: 'No pending request expires within the next 24 hours.',
  stuck: 'No pending request is past half its validity.',
  review: 'No completed request is waiting for a name review.',
};

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
  if (entries.length === 0 && (filtered || view !== 'all')) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <p className="font-medium text-slate-900">{filtered ? EMPTY_MESSAGES.all : EMPTY_MESSAGES[view]}</p>
        {filtered ? (
          <Link href="/" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline underline-offset-2">
            Clear filters
          </Link>
        ) : null}
      </div>
    );
  }
  if (entries.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <p className="font-medium text-slate-900">No requests here yet</p>
        <p className="mt-1 text-sm text-slate-600">
          {canCreate ? 'Requests you create appear here' : 'Requests your team creates appear here'}, with their latest status.
        </p>
        {canCreate ? (
          <Link href="/verifications/new" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline underline-offset-2">
            Create a verification request
          </Link>
        ) : null}
      </div>
    );
  }
  return (
    <DataTable
      caption={caption}
      columns={[
        'Requested name',
        'Identified name',
        'Purpose',
        'Channels',
        'Created',
        'Status',
        <span key="link" className="sr-only">
          Link
        </span>,
      ]}
    >
      {entries.map((entry) => {
        // A link is worth copying only while the person can still use it.
        const linkUsable = showLinks && entry.link && (!entry.accessExpiresAt || entry.accessExpiresAt > now) && entry.status === 'pending';
        return (
          <tr key={entry.verificationId} className="align-top hover:bg-slate-50">
            <td data-label="Requested name" className="px-4 py-3">
              <Link
                href={`/verifications/${encodeURIComponent(entry.verificationId)}`}
                className="font-medium text-indigo-700 hover:underline"
              >
                {entry.name}
                <LinkPendingHint className="ml-1.5 align-[-2px]" />
              </Link>
              <div>
                <span className={`${idTextClasses} text-slate-500`}>{entry.verificationId}</span>
              </div>
            </td>
            <td data-label="Identified name" className="max-w-64 px-4 py-3 break-words">
              <IdentifiedName entry={entry} />
            </td>
            <td data-label="Purpose" className="max-w-72 px-4 py-3 break-words text-slate-700">
              {/* At most two lines, so one long purpose does not make its row the page's tallest;
                  the whole text stays in the cell for screen readers and in the title on hover. */}
              <span className="line-clamp-2" title={purposeLabel(entry.purpose)}>
                {purposeLabel(entry.purpose)}
              </span>
            </td>
            <td data-label="Channels" className="px-4 py-3">
              <Channels entry={entry} />
            </td>
            <td data-label="Created" className="px-4 py-3 whitespace-nowrap text-slate-700">
              <TimeText iso={entry.createdAt.toISOString()} timeZone={timeZone} />
            </td>
            <td data-label="Status" className="px-4 py-3">
              <StatusBadge status={entry.status} />
              <Deadline entry={entry} now={now} />
            </td>
            <td className="px-4 py-3 text-right">
              {linkUsable && entry.link ? (
                <CopyLinkButton
                  link={entry.link}
                  verificationId={entry.verificationId}
                  size="sm"
                  accessibleLabel={`Copy link for ${entry.name}`}
                />
              ) : null}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
