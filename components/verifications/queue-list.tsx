// The queue's table: each request that needs someone, why, who is on it, and "Take it" for an
// unassigned one. Rendered on the server in the reader's words; only the take buttons are client
// components. Below the sm breakpoint the rows read as cards (DataTable).
import { useLocale, useTranslations } from 'next-intl';
import { DataTable, idTextClasses } from '@/components/ui/data-table';
import { Ban, CircleX, Clock3, Hourglass, TriangleAlert } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { TimeText } from '@/components/ui/time-text';
import { isLanguage } from '@/lib/i18n/languages';
import type { QueueItem } from '@/lib/verifications/queue/queue.server';
import type { QueueReason } from '@/lib/verifications/queue/reasons';
import { QueueTakeButton } from './queue-take-button';
import { StatusBadge } from './status-badge';

/** Each reason with an icon of its own, so it never rests on colour alone. */
const REASON_ICONS: Record<QueueReason, typeof Ban> = {
  name_mismatch: TriangleAlert,
  failed: CircleX,
  expired: Ban,
  expiring: Clock3,
  stale: Hourglass,
};

export function QueueList({
  items,
  canTake,
  pendingDays,
  timeZone,
  caption,
}: {
  items: QueueItem[];
  canTake: boolean;
  pendingDays: number;
  timeZone: string;
  caption: string;
}) {
  const t = useTranslations('queue');
  const tCommon = useTranslations('common');
  const locale = useLocale();
  const language = isLanguage(locale) ? locale : undefined;
  return (
    <DataTable
      caption={caption}
      bodyTestId="queue-items"
      columns={[t('table.reason'), t('table.person'), t('table.status'), t('table.created'), t('table.assignee'), t('table.actions')]}
    >
      {items.map((item) => {
        const Icon = REASON_ICONS[item.reason];
        return (
          <tr key={item.verificationId} className="align-top hover:bg-slate-50" data-reason={item.reason}>
            <td data-label={t('table.reason')} className="max-w-80 px-4 py-3">
              <span className="inline-flex items-center gap-1.5 font-medium text-slate-900">
                <Icon aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
                {t(`reasons.${item.reason}`)}
              </span>
              <p className="mt-0.5 text-xs text-slate-600">
                {item.reason === 'stale' ? t('reasonHelp.stale', { days: pendingDays }) : t(`reasonHelp.${item.reason}`)}
              </p>
            </td>
            <td data-label={t('table.person')} className="px-4 py-3">
              <Link
                href={`/verifications/${encodeURIComponent(item.verificationId)}`}
                className="font-medium text-indigo-700 hover:underline"
              >
                <span translate="no">{item.name}</span>
              </Link>
              <div>
                <span className={`${idTextClasses} text-slate-500`}>{item.verificationId}</span>
              </div>
            </td>
            <td data-label={t('table.status')} className="px-4 py-3">
              <StatusBadge status={item.status} label={tCommon(`status.${item.status}`)} />
            </td>
            <td data-label={t('table.created')} className="px-4 py-3 whitespace-nowrap text-slate-700">
              <TimeText iso={item.createdAt.toISOString()} timeZone={timeZone} language={language} />
            </td>
            <td data-label={t('table.assignee')} className="px-4 py-3" data-testid="queue-assignee">
              {item.assignee ? (
                <span className="font-medium text-slate-900" translate="no">
                  {item.assignee.name}
                </span>
              ) : (
                <span className="text-slate-600">{t('table.nobody')}</span>
              )}
            </td>
            <td className="px-4 py-3">
              {canTake ? <QueueTakeButton verificationId={item.verificationId} name={item.name} assigned={item.assignee !== null} /> : null}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
