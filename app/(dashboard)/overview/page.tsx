// Overview: how the team is doing for a period and the register's filters — figures, charts drawn
// on the server as SVG, and each chart's figures as a table. Everything is chosen through the
// query string (one GET form), so it works without JavaScript and every view has a URL.
import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { BarListChart } from '@/components/overview/bar-list-chart';
import { StackedBarChart } from '@/components/overview/stacked-bar-chart';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { Card, CardBody } from '@/components/ui/card';
import { Input, Select } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { requireStaff } from '@/lib/auth/session';
import { getEnv } from '@/lib/env';
import { DEFAULT_LANGUAGE, FORMAT_LOCALES, isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@/lib/i18n/languages';
import { OVERVIEW_CHANNELS, type OverviewChannel, type OverviewFilter, overviewFigures } from '@/lib/overview/figures.server';
import { bucketsOf, PERIODS, readPeriod } from '@/lib/overview/period';
import { listStaff } from '@/lib/staff/staff-accounts';
import { formatDateTime } from '@/lib/time/display-time';
import { displayTimeZone } from '@/lib/time/display-zone';
import { cn } from '@/lib/utils';
import { isPredefinedPurpose, PREDEFINED_PURPOSES } from '@/lib/verifications/labels';
import { queueDays } from '@/lib/verifications/queue/queue.server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('overview.page');
  return { title: t('title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

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
  const { period, problem } = readPeriod({ period: first(params.period), from: first(params.from), to: first(params.to) }, now, timeZone);

  // Filters that name nothing known are dropped rather than narrowing to nothing.
  const purpose = first(params.purpose);
  const lang = first(params.language);
  const channel = first(params.channel);
  const creator = first(params.creator);
  const filter: OverviewFilter = {
    ...(purpose && isPredefinedPurpose(purpose) ? { purpose } : {}),
    ...(lang && isLanguage(lang) ? { language: lang } : {}),
    ...(channel && (OVERVIEW_CHANNELS as readonly string[]).includes(channel) ? { channel: channel as OverviewChannel } : {}),
    ...(creator && members.some((member) => member.id === creator) ? { createdBy: creator } : {}),
  };
  const figures = await overviewFigures(period, filter, { now, ...queueDays(getEnv()) });

  const formatLocale = FORMAT_LOCALES[language];
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(formatLocale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00.000Z`));
  const longDay = (day: string) =>
    new Intl.DateTimeFormat(formatLocale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${day}T12:00:00.000Z`),
    );
  const percent = (share: number) => new Intl.NumberFormat(formatLocale, { style: 'percent', maximumFractionDigits: 1 }).format(share);
  const duration = (seconds: number | null) => {
    if (seconds === null) return t('tiles.none');
    if (seconds < 90 * 60) return t('duration.minutes', { n: Math.max(1, Math.round(seconds / 60)) });
    if (seconds < 48 * 3600) return t('duration.hours', { n: Math.round(seconds / 3600) });
    return t('duration.days', { n: Math.round(seconds / 86_400) });
  };
  const statusWord = (status: string) => tCommon(`status.${status}` as 'status.pending');

  const counts = new Map<string, Map<string, number>>();
  for (const row of figures.created) {
    const bucket = counts.get(row.bucket) ?? new Map<string, number>();
    bucket.set(row.status, row.count);
    counts.set(row.bucket, bucket);
  }
  const buckets = bucketsOf(period).map((key) => ({ key, label: dayLabel(key) }));

  const periodHref = (kind: string) => {
    const query = new URLSearchParams();
    if (kind !== 'month') query.set('period', kind);
    for (const [key, value] of Object.entries({
      purpose: filter.purpose,
      language: filter.language,
      channel: filter.channel,
      creator: filter.createdBy,
    })) {
      if (value) query.set(key, value);
    }
    const text = query.toString();
    return text ? `/overview?${text}` : '/overview';
  };
  const completedCount = figures.totals.completed;

  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('page.title')}</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">{t('page.intro')}</p>
      </div>

      <div className="space-y-4">
        <nav aria-label={t('period.label')} className="flex flex-wrap gap-2">
          {PERIODS.filter((kind) => kind !== 'custom').map((kind) => (
            <Link
              key={kind}
              href={periodHref(kind)}
              aria-current={period.kind === kind ? 'page' : undefined}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-medium ring-1 ring-inset',
                period.kind === kind
                  ? 'bg-indigo-50 text-indigo-900 ring-indigo-300'
                  : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50',
              )}
            >
              {t(`period.${kind}`)}
            </Link>
          ))}
        </nav>
        <form method="get" action="/overview" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="period" value="custom" />
          <div className="space-y-1 text-sm">
            <label htmlFor="overview-from" className="block font-medium text-slate-900">
              {t('period.from')}
            </label>
            <Input id="overview-from" type="date" name="from" defaultValue={period.firstDay} sizing="h-9 w-40 py-1.5" />
          </div>
          <div className="space-y-1 text-sm">
            <label htmlFor="overview-to" className="block font-medium text-slate-900">
              {t('period.to')}
            </label>
            <Input id="overview-to" type="date" name="to" defaultValue={period.lastDay} sizing="h-9 w-40 py-1.5" />
          </div>
          <div className="space-y-1 text-sm">
            <label htmlFor="overview-purpose" className="block font-medium text-slate-900">
              {t('filter.purpose')}
            </label>
            <Select id="overview-purpose" name="purpose" defaultValue={filter.purpose ?? ''} sizing="h-9 w-56 max-w-full py-1.5">
              <option value="">{t('filter.any')}</option>
              {PREDEFINED_PURPOSES.map(({ value }) => (
                <option key={value} value={value}>
                  {tCommon(`purpose.${value}`)}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1 text-sm">
            <label htmlFor="overview-language" className="block font-medium text-slate-900">
              {t('filter.language')}
            </label>
            <Select id="overview-language" name="language" defaultValue={filter.language ?? ''} sizing="h-9 w-40 py-1.5">
              <option value="">{t('filter.any')}</option>
              {LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1 text-sm">
            <label htmlFor="overview-channel" className="block font-medium text-slate-900">
              {t('filter.channel')}
            </label>
            <Select id="overview-channel" name="channel" defaultValue={filter.channel ?? ''} sizing="h-9 w-44 py-1.5">
              <option value="">{t('filter.any')}</option>
              {OVERVIEW_CHANNELS.map((code) => (
                <option key={code} value={code}>
                  {t(`filter.channels.${code}`)}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1 text-sm">
            <label htmlFor="overview-creator" className="block font-medium text-slate-900">
              {t('filter.creator')}
            </label>
            <Select id="overview-creator" name="creator" defaultValue={filter.createdBy ?? ''} sizing="h-9 w-48 max-w-full py-1.5">
              <option value="">{t('filter.any')}</option>
              {members.map((member) => (
                <option key={member.id} value={member.id} translate="no">
                  {member.name}
                </option>
              ))}
            </Select>
          </div>
          <button type="submit" className={buttonClasses('secondary', 'sm', 'h-9')}>
            {t('filter.apply')}
          </button>
        </form>
        {problem ? <Alert tone="warning" title={t(`page.problems.${problem}`)} role="status" /> : null}
        <p className="text-sm text-slate-600" data-testid="overview-range">
          {t('page.range', { first: longDay(period.firstDay), last: longDay(period.lastDay) })}
        </p>
      </div>

      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" data-testid="overview-tiles">
        {[
          ['created', String(figures.totals.created)],
          ['completionRate', figures.completionRate === null ? t('tiles.none') : percent(figures.completionRate)],
          ['median', duration(figures.completionSeconds.median)],
          ['p90', duration(figures.completionSeconds.p90)],
        ].map(([key, value]) => (
          <div key={key} className="rounded-lg bg-white px-5 py-4 shadow-sm ring-1 ring-slate-200">
            <dt className="text-sm text-slate-600">{t(`tiles.${key}` as 'tiles.created')}</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums" data-tile={key}>
              {value}
            </dd>
          </div>
        ))}
      </dl>

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
        <Card>
          <CardBody>
            <BarListChart
              id="reasons-chart"
              title={t('charts.reasons.title')}
              empty={t('charts.reasons.empty')}
              items={figures.failureReasons.map((row) => ({
                key: row.reason ?? '',
                label: row.reason ?? t('charts.unknown'),
                count: row.count,
                userData: row.reason !== null,
              }))}
              tableLabel={t('charts.table')}
              nameHeader={t('charts.reasons.title')}
              countHeader={t('charts.count')}
            />
          </CardBody>
        </Card>
        <Card>
          <CardBody>
            <BarListChart
              id="methods-chart"
              title={t('charts.methods.title')}
              empty={t('charts.methods.empty')}
              items={figures.methods.map((row) => {
                const known = row.method !== null && ['passport', 'id_card', 'drivers_license'].includes(row.method);
                return {
                  key: row.method ?? '',
                  label:
                    row.method === null ? t('charts.unknown') : known ? tCommon(`method.${row.method}` as 'method.passport') : row.method,
                  count: row.count,
                  userData: row.method !== null && !known,
                };
              })}
              tableLabel={t('charts.table')}
              nameHeader={t('charts.methods.title')}
              countHeader={t('charts.count')}
            />
          </CardBody>
        </Card>
        <Card>
          <CardBody>
            <BarListChart
              id="mismatches-chart"
              title={t('charts.mismatches.title')}
              description={t('charts.mismatches.summary', {
                total: figures.mismatches.total,
                share: completedCount > 0 ? percent(figures.mismatches.total / completedCount) : t('tiles.none'),
              })}
              empty=""
              items={figures.mismatches.decisions.map((row) => ({
                key: row.decision ?? 'undecided',
                label: row.decision
                  ? tCommon(`nameReviewDecision.${row.decision}` as 'nameReviewDecision.same_person')
                  : t('charts.mismatches.undecided'),
                count: row.count,
              }))}
              tableLabel={t('charts.table')}
              nameHeader={t('charts.mismatches.title')}
              countHeader={t('charts.count')}
            />
          </CardBody>
        </Card>
        <Card>
          <CardBody className="space-y-3">
            <h2 className="text-base font-semibold text-slate-900">{t('charts.open.title')}</h2>
            <p className="text-sm text-slate-600">{t('charts.open.desc')}</p>
            {figures.openItems.length === 0 ? (
              <p className="text-sm text-slate-600">{t('charts.open.empty')}</p>
            ) : (
              <table className="min-w-full text-left text-sm" data-testid="open-items">
                <thead className="text-xs text-slate-600 uppercase">
                  <tr>
                    <th scope="col" className="py-1 pr-4">
                      {t('charts.open.assignee')}
                    </th>
                    <th scope="col" className="py-1 pr-4 text-right">
                      {t('charts.count')}
                    </th>
                    <th scope="col" className="py-1">
                      {t('charts.open.oldest')}
                    </th>
                  </tr>
                </thead>
                <tbody className="tabular-nums">
                  {figures.openItems.map((row) => (
                    <tr key={row.assigneeId ?? 'nobody'} className="border-t border-slate-100">
                      <th scope="row" className="py-1 pr-4 font-normal" translate={row.assigneeName ? 'no' : undefined}>
                        {row.assigneeName ?? t('charts.open.unassigned')}
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
          </CardBody>
        </Card>
      </div>
    </div>
  );
}
