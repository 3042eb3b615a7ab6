// The audit trail as a CSV download, for administrators only (as the audit page), with the audit
// page's filters. A filter that is not understood refuses the export with 400. Streamed batch by
// batch (lib/export); the export itself is audited when the stream ends.
import { auditFilterFor } from '@/lib/audit-trail/queries.server';
import { authorizedRoute } from '@/lib/auth/guards';
import { AUDIT_CSV_HEADER, auditCsvCells, auditExportBatches } from '@/lib/export/audit-export';
import { auditExportFilter, auditFilterDetails, withDayZone } from '@/lib/export/export-filters';
import { badFilterResponse, csvDownload, queryParams } from '@/lib/export/export-response';
import { displayTimeZoneOf } from '@/lib/time/display-zone';

export const dynamic = 'force-dynamic';

export const GET = authorizedRoute('audit:read', async (request, staff) => {
  const { filter, problems } = auditExportFilter(queryParams(request));
  if (problems.length > 0) return badFilterResponse(problems);
  // The days are read in the zone the page showed them in (the same cookie or setting).
  const timeZone = displayTimeZoneOf(request);
  return csvDownload({
    name: 'audit-trail',
    header: AUDIT_CSV_HEADER,
    batches: auditExportBatches(auditFilterFor(filter, timeZone)),
    toCells: auditCsvCells,
    audit: { actorId: staff.id, action: 'audit.exported', filters: withDayZone(auditFilterDetails(filter), timeZone) },
  });
});
