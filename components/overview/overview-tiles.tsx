// The overview's four headline figures: requests created, the completion rate, and the median and
// 90th-percentile time to complete, in words of the reader's language ("3 hours").
import { getTranslations } from 'next-intl/server';
import { FORMAT_LOCALES, type Language } from '@/lib/i18n/languages';
import type { OverviewFigures } from '@/lib/overview/figures.server';

type Props = { figures: Pick<OverviewFigures, 'totals' | 'completionRate' | 'completionSeconds'>; language: Language };

export async function OverviewTiles({ figures, language }: Props) {
  const t = await getTranslations('overview');
  const percent = (share: number) =>
    new Intl.NumberFormat(FORMAT_LOCALES[language], { style: 'percent', maximumFractionDigits: 1 }).format(share);
  // Minutes up to an hour and a half, hours up to two days, days beyond: precise enough to compare.
  const duration = (seconds: number | null) => {
    if (seconds === null) return t('tiles.none');
    if (seconds < 90 * 60) return t('duration.minutes', { n: Math.max(1, Math.round(seconds / 60)) });
    if (seconds < 48 * 3600) return t('duration.hours', { n: Math.round(seconds / 3600) });
    return t('duration.days', { n: Math.round(seconds / 86_400) });
  };
  const tiles = [
    ['created', String(figures.totals.created)],
    ['completionRate', figures.completionRate === null ? t('tiles.none') : percent(figures.completionRate)],
    ['median', duration(figures.completionSeconds.median)],
    ['p90', duration(figures.completionSeconds.p90)],
  ] as const;
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="overview-tiles">
      {tiles.map(([key, value]) => (
        <div key={key} className="rounded-lg bg-white px-5 py-4 shadow-sm ring-1 ring-slate-200">
          <dt className="text-sm text-slate-600">{t(`tiles.${key}`)}</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums" data-tile={key}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
