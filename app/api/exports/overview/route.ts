// The overview's figures as a CSV download, for the period and filters of the overview page (the
// same query string, read by the same parser). Anyone who may read the overview may download it;
// a period or filter that is not understood refuses the download with 400 rather than giving
// another period's figures or wider ones. Headers, words and separator follow the exporter's
// language, with `delimiter` and `values` to choose otherwise (docs/exports.md).
import { getTranslations } from 'next-intl/server';
import { authorizedRoute } from '@/lib/auth/guards';
import { getEnv } from '@/lib/env';
import { readExportFormat, withoutFormat } from '@/lib/export/export-format';
import { badFilterResponse, csvDownload, exporterLanguage, queryParams } from '@/lib/export/export-response';
import { overviewCsvLayout, overviewCsvRows } from '@/lib/export/overview-export';
import { overviewFigures } from '@/lib/overview/figures.server';
import { type OverviewFilter, readOverviewQuery } from '@/lib/overview/overview-query';
import { daysBetween, type Period } from '@/lib/overview/period';
import { listStaff } from '@/lib/staff/staff-accounts';
import { displayTimeZoneOf } from '@/lib/time/display-zone';
import { queueDays } from '@/lib/verifications/queue/queue.server';

export const dynamic = 'force-dynamic';

/** What the audit trail keeps of the download: the period's days and the filters, codes and ids only. */
function overviewDetails(period: Period, filter: OverviewFilter, timeZone: string): Record<string, string | number> {
  const details: Record<string, string | number> = {
    period: period.kind,
    from: period.firstDay,
    to: period.lastDay,
    days: daysBetween(period.firstDay, period.lastDay),
    timeZone,
  };
  for (const [field, value] of Object.entries(filter)) if (typeof value === 'string') details[field] = value;
  return details;
}

export const GET = authorizedRoute('verification:read', async (request, staff) => {
  const params = queryParams(request);
  // The days are read in the zone the page showed them in (the same cookie or setting).
  const timeZone = displayTimeZoneOf(request);
  const now = new Date();
  const [members, language, t] = await Promise.all([listStaff(), exporterLanguage(), getTranslations('exports.problems')]);
  const { period, filter, problems } = readOverviewQuery(withoutFormat(params), {
    now,
    timeZone,
    staffIds: members.map((member) => member.id),
  });
  const { format, problems: formatProblems } = readExportFormat(params, language);
  const refused = [...problems.map((problem) => t(`overview.${problem}`)), ...formatProblems.map((option) => t(`format.${option}`))];
  if (refused.length > 0) return badFilterResponse(refused);
  const figures = await overviewFigures(period, filter, { now, ...queueDays(getEnv()) });
  const { header, toCells } = await overviewCsvLayout({ timeZone, values: format.values, delimiter: format.delimiter });
  const rows = overviewCsvRows(period, figures, timeZone);
  return csvDownload({
    name: `overview-${period.firstDay}-to-${period.lastDay}`,
    header,
    batches: (async function* () {
      yield rows;
    })(),
    toCells,
    delimiter: format.delimiter,
    audit: { actorId: staff.id, action: 'overview.exported', filters: overviewDetails(period, filter, timeZone) },
    now,
  });
});
