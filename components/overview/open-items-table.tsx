// The items open now per assignee, with the oldest one's creation: the assignee's name is user data
// (not translated); items nobody holds are "unassigned".
import { getTranslations } from 'next-intl/server';
import type { Language } from '@/lib/i18n/languages';
import type { OverviewFigures } from '@/lib/overview/figures.server';
import { formatDateTime } from '@/lib/time/display-time';

type Props = { items: OverviewFigures['openItems']; timeZone: string; language: Language };

export async function OpenItemsTable({ items, timeZone, language }: Props) {
  const t = await getTranslations('overview.charts');
  return (
    <>
      <h2 className="text-base font-semibold text-slate-900">{t('open.title')}</h2>
      <p className="text-sm text-slate-600">{t('open.desc')}</p>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{t('open.empty')}</p>
      ) : (
        <table className="min-w-full text-left text-sm" data-testid="open-items">
          <thead className="text-xs text-slate-600 uppercase">
            <tr>
              <th scope="col" className="py-1 pr-4">
                {t('open.assignee')}
              </th>
              <th scope="col" className="py-1 pr-4 text-right">
                {t('count')}
              </th>
              <th scope="col" className="py-1">
                {t('open.oldest')}
              </th>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {items.map((row) => (
              <tr key={row.assigneeId ?? 'nobody'} className="border-t border-slate-100">
                <th scope="row" className="py-1 pr-4 font-normal" translate={row.assigneeName ? 'no' : undefined}>
                  {row.assigneeName ?? t('open.unassigned')}
                </th>
                <td className="py-1 pr-4 text-right">{row.count}</td>
                <td className="py-1">
                  <time dateTime={row.oldestCreatedAt.toISOString()}>{formatDateTime(row.oldestCreatedAt, timeZone, language)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
