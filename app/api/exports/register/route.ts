// The register as a CSV download for auditors, with the register page's filters (the same query
// string). Anyone who may read the register may export it; a filter that is not understood
// refuses the export with 400 rather than widening it. Streamed batch by batch (lib/export). The
// file is written for the exporter's language: its separator, headers and words, with the
// `delimiter` and `values` parameters to choose otherwise (docs/exports.md).
import { getTranslations } from 'next-intl/server';
import { authorizedRoute } from '@/lib/auth/guards';
import { registerExportFilter, registerFilterDetails, withDayZone } from '@/lib/export/export-filters';
import { readExportFormat, withoutFormat } from '@/lib/export/export-format';
import { badFilterResponse, csvDownload, exporterLanguage, queryParams } from '@/lib/export/export-response';
import { registerCsvLayout, registerExportBatches } from '@/lib/export/register-export';
import { displayTimeZoneOf } from '@/lib/time/display-zone';

export const dynamic = 'force-dynamic';

export const GET = authorizedRoute('verification:read', async (request, staff) => {
  const params = queryParams(request);
  const [{ filter, problems }, language, t] = await Promise.all([
    registerExportFilter(withoutFormat(params)),
    exporterLanguage(),
    getTranslations('exports.problems'),
  ]);
  const { format, problems: formatProblems } = readExportFormat(params, language);
  const refused = [...problems, ...formatProblems.map((option) => t(`format.${option}`))];
  if (refused.length > 0) return badFilterResponse(refused);
  // The days are read, and the times written, in the zone the page showed them in (the same
  // cookie or setting).
  const timeZone = displayTimeZoneOf(request);
  const { header, toCells } = await registerCsvLayout({ timeZone, values: format.values });
  return csvDownload({
    name: 'verification-register',
    header,
    batches: registerExportBatches(filter, { now: new Date(), staffId: staff.id, timeZone }),
    toCells,
    delimiter: format.delimiter,
    audit: { actorId: staff.id, action: 'register.exported', filters: withDayZone(registerFilterDetails(filter), timeZone) },
  });
});
