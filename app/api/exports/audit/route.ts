// The audit trail as a CSV download, for administrators only (as the audit page), with the audit
// page's filters. A filter that is not understood refuses the export with 400. Streamed batch by
// batch (lib/export); the export itself is audited when the stream ends. Headers and separator
// follow the exporter's language (`delimiter` chooses otherwise); actions, target types and
// details stay the codes the audit trail stores (docs/exports.md).
import { getTranslations } from 'next-intl/server';
import { auditFilterFor } from '@/lib/audit-trail/queries.server';
import { authorizedRoute } from '@/lib/auth/guards';
import { auditCsvCells, auditCsvHeader, auditExportBatches } from '@/lib/export/audit-export';
import { auditExportFilter, auditFilterDetails, withDayZone } from '@/lib/export/export-filters';
import { readExportFormat, withoutFormat } from '@/lib/export/export-format';
import { badFilterResponse, csvDownload, exporterLanguage, queryParams } from '@/lib/export/export-response';
import { displayTimeZoneOf } from '@/lib/time/display-zone';

export const dynamic = 'force-dynamic';

export const GET = authorizedRoute('audit:read', async (request, staff) => {
  const params = queryParams(request);
  const [{ filter, problems }, language, t] = await Promise.all([
    auditExportFilter(withoutFormat(params)),
    exporterLanguage(),
    getTranslations('exports.problems'),
  ]);
  const { format, problems: formatProblems } = readExportFormat(params, language);
  const refused = [...problems, ...formatProblems.map((option) => t(`format.${option}`))];
  if (refused.length > 0) return badFilterResponse(refused);
  // The days are read, and the times written, in the zone the page showed them in (the same
  // cookie or setting).
  const timeZone = displayTimeZoneOf(request);
  return csvDownload({
    name: 'audit-trail',
    header: await auditCsvHeader(timeZone),
    batches: auditExportBatches(auditFilterFor(filter, timeZone), timeZone),
    toCells: auditCsvCells,
    delimiter: format.delimiter,
    audit: { actorId: staff.id, action: 'audit.exported', filters: withDayZone(auditFilterDetails(filter), timeZone) },
  });
});
