// The register as a CSV download for auditors, with the register page's filters (the same query
// string). Anyone who may read the register may export it; a filter that is not understood
// refuses the export with 400 rather than widening it. Streamed batch by batch (lib/export).
import { authorizedRoute } from '@/lib/auth/guards';
import { registerExportFilter, registerFilterDetails, withDayZone } from '@/lib/export/export-filters';
import { badFilterResponse, csvDownload, queryParams } from '@/lib/export/export-response';
import { REGISTER_CSV_HEADER, registerCsvCells, registerExportBatches } from '@/lib/export/register-export';
import { displayTimeZoneOf } from '@/lib/time/display-zone';

export const dynamic = 'force-dynamic';

export const GET = authorizedRoute('verification:read', async (request, staff) => {
  const { filter, problems } = registerExportFilter(queryParams(request));
  if (problems.length > 0) return badFilterResponse(problems);
  // The days are read in the zone the page showed them in (the same cookie or setting).
  const timeZone = displayTimeZoneOf(request);
  return csvDownload({
    name: 'verification-register',
    header: REGISTER_CSV_HEADER,
    batches: registerExportBatches(filter, { now: new Date(), staffId: staff.id, timeZone }),
    toCells: registerCsvCells,
    audit: { actorId: staff.id, action: 'register.exported', filters: withDayZone(registerFilterDetails(filter), timeZone) },
  });
});
