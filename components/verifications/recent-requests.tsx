// "Recent requests": the register of requests created from this dashboard, newest first.
import Link from 'next/link';
import { Link2, Mail, MessageSquare } from 'lucide-react';
import { LocalTime } from '@/components/ui/local-time';
import type { RegisterEntry } from '@/lib/verifications/register';
import { purposeLabel } from '@/lib/verifications/labels';
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
    <ul className="flex flex-wrap gap-1.5">
      {channels.map(({ icon: Icon, label }) => (
        <li key={label} className="inline-flex items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
          <Icon aria-hidden="true" className="size-3.5" />
          {label}
        </li>
      ))}
    </ul>
  );
}

export function RecentRequests({
  entries,
  now,
  showLinks,
  canCreate,
}: {
  entries: RegisterEntry[];
  now: Date;
  /** Only roles allowed to copy links see them. */
  showLinks: boolean;
  canCreate: boolean;
}) {
  if (entries.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
        <p className="font-medium text-slate-900">No requests here yet</p>
        <p className="mt-1 text-sm text-slate-600">Requests you create appear here, with their latest status.</p>
        {canCreate ? (
          <Link href="/verifications/new" className="mt-4 inline-block text-sm font-medium text-indigo-700 underline underline-offset-2">
            Create a verification request
          </Link>
        ) : null}
      </div>
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Recent verification requests, newest first</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="px-4 py-3">Person</th>
            <th scope="col" className="px-4 py-3">Purpose</th>
            <th scope="col" className="px-4 py-3">Channels</th>
            <th scope="col" className="px-4 py-3">Created</th>
            <th scope="col" className="px-4 py-3">Status</th>
            <th scope="col" className="px-4 py-3"><span className="sr-only">Link</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.map((entry) => {
            const linkUsable = showLinks && entry.link && (!entry.accessExpiresAt || entry.accessExpiresAt > now) && entry.status === 'pending';
            return (
              <tr key={entry.verificationId} className="align-top hover:bg-slate-50">
                <td className="px-4 py-3">
                  <Link
                    href={`/verifications/${encodeURIComponent(entry.verificationId)}`}
                    className="font-medium text-indigo-700 hover:underline"
                  >
                    {entry.name}
                  </Link>
                  <div className="font-mono text-xs text-slate-500">{entry.verificationId}</div>
                </td>
                <td className="max-w-56 px-4 py-3 break-words text-slate-700">{purposeLabel(entry.purpose)}</td>
                <td className="px-4 py-3">
                  <Channels entry={entry} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap text-slate-700">
                  <LocalTime iso={entry.createdAt.toISOString()} />
                </td>
                <td className="px-4 py-3">
                  <StatusBadge status={entry.status} />
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
        </tbody>
      </table>
    </div>
  );
}
