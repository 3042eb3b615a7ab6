// The overview's outcomes of the period as ranked bars: why verifications failed, the methods
// used, and the name mismatches with staff's decisions. A failure reason, and a method the
// catalogs do not name, are the service's own text: shown as they came, not translated.
import { getTranslations } from 'next-intl/server';
import { Card, CardBody } from '@/components/ui/card';
import { FORMAT_LOCALES, type Language } from '@/lib/i18n/languages';
import type { OverviewFigures } from '@/lib/overview/figures.server';
import { BarListChart } from './bar-list-chart';

const KNOWN_METHODS: readonly string[] = ['passport', 'id_card', 'drivers_license'];

type Props = { figures: Pick<OverviewFigures, 'failureReasons' | 'methods' | 'mismatches' | 'totals'>; language: Language };

export async function OutcomeCharts({ figures, language }: Props) {
  const [t, tCommon] = await Promise.all([getTranslations('overview'), getTranslations('common')]);
  const percent = (share: number) =>
    new Intl.NumberFormat(FORMAT_LOCALES[language], { style: 'percent', maximumFractionDigits: 1 }).format(share);
  const completedCount = figures.totals.completed;
  return (
    <>
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
              const known = row.method !== null && KNOWN_METHODS.includes(row.method);
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
      </Card>{' '}
    </>
  );
}
