// Overview: how the team is doing for a period and the register's filters — figures, charts drawn
// on the server as SVG, and each chart's figures as a table. Everything is chosen through the
// query string (one GET form), so it works without JavaScript and every view has a URL.
import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { ExportCsvLink } from '@/components/export/export-csv-link';
import { OpenItemsTable } from '@/components/overview/open-items-table';
import { OutcomeCharts } from '@/components/overview/outcome-charts';
import { OverviewFilters } from '@/components/overview/overview-filters';
import { OverviewTiles } from '@/components/overview/overview-tiles';
import { StackedBarChart } from '@/components/overview/stacked-bar-chart';
import { Alert } from '@/components/ui/alert';
import { Card, CardBody } from '@/components/ui/card';
import { requireStaff } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { DEFAULT_LANGUAGE, FORMAT_LOCALES, isLanguage } from '@/lib/i18n/languages';
import { overviewFigures } from '@/lib/overview/figures.server';
import { type OverviewQueryProblem, overviewQuery, readOverviewQuery } from '@/lib/overview/overview-query';
import { bucketsOf } from '@/lib/overview/period';
import { listStaff } from '@/lib/staff/staff-accounts';
import { displayTimeZone } from '@/lib/time/display-zone';
import { queueDays } from '@/lib/verifications/queue/queue.server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('overview.page');
  return { title: t('title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PERIOD_PROBLEMS: readonly OverviewQueryProblem[] = ['period', 'from', 'to', 'order', 'length'];

export default async function OverviewPage({ searchParams }: Props) {
  await requireStaff('verification:read', '/overview');
  const [params, t, tCommon, locale, timeZone, members] = await Promise.all([
    searchParams,
    getTranslations('overview'),
    getTranslations('common'),
    getLocale(),
    displayTimeZone(),
    listStaff(),
  ]);
  const language = isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
  const now = new Date();
  // The page shows this month for a period it cannot read, saying so, and drops a filter it cannot
  // read; the download refuses both (app/api/exports/overview).
  const { period, filter, problems } = readOverviewQuery(params, { now, timeZone, staffIds: members.map((member) => member.id) });
  const problem = problems.find((name) => PERIOD_PROBLEMS.includes(name));
  const figures = await overviewFigures(period, filter, { now, ...queueDays(getEnv()) });

  const formatLocale = FORMAT_LOCALES[language];
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(formatLocale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00.000Z`));
  const longDay = (day: string) =>
    new Intl.DateTimeFormat(formatLocale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${day}T12:00:00.000Z`),
    );
  const statusWord = (status: string) => tCommon(`status.${status}` as 'status.pending');

  const counts = new Map<string, Map<string, number>>();
  for (const row of figures.created) {
    const bucket = counts.get(row.bucket) ?? new Map<string, number>();
    bucket.set(row.status, row.count);
    counts.set(row.bucket, bucket);
  }
  const buckets = bucketsOf(period).map((key) => ({ key, label: dayLabel(key) }));

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('page.title')}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t('page.intro')}</p>
      </div>

      <div className="space-y-4">
        <OverviewFilters period={period} filter={filter} members={members} />
        {problem ? <Alert tone="warning" title={t(`page.problems.${problem}`)} role="status" /> : null}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600" data-testid="overview-range">
            {t('page.range', { first: longDay(period.firstDay), last: longDay(period.lastDay) })}
          </p>
          <ExportCsvLink
            href={`/api/exports/overview${overviewQuery(period, filter)}`}
            description={t('page.downloadDescription')}
            label={t('page.download')}
            offerCodes
          />
        </div>
      </div>

      <OverviewTiles figures={figures} language={language} />

      <Card>
        <CardBody>
          <StackedBarChart
            id="created-chart"
            title={t('charts.created.title', { bucket: period.bucket })}
            description={t('charts.created.desc', { bucket: period.bucket })}
            data={{ buckets, counts }}
            statusLabel={statusWord}
            tableLabel={t('charts.table')}
            bucketHeader={t('charts.bucket', { bucket: period.bucket })}
            countHeader={t('charts.count')}
          />
        </CardBody>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <OutcomeCharts figures={figures} language={language} />
        <Card>
          <CardBody className="space-y-3">
            <OpenItemsTable items={figures.openItems} timeZone={timeZone} language={language} />
          </CardBody>
        </Card>
      </div>
    </div>
  );
}
