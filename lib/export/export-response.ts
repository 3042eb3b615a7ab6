// The answer of an export route: a CSV download that no cache keeps, named with the day it was
// taken, whose rows are audited when the stream ends — with the count of rows that went out.
import 'server-only';
import { recordAudit } from '@/lib/audit/audit';
import type { AuditAction } from '@/lib/audit/audit-labels';
import { jsonError } from '@/lib/platform/json-response';
import { logger } from '@/lib/platform/log';
import type { CsvCell } from './csv';
import { csvStream } from './csv-stream';

const log = logger.child({ area: 'export' });

type ExportOptions<Row> = {
  /** The file's name before the date, e.g. "verification-register". */
  name: string;
  header: readonly string[];
  batches: AsyncIterable<readonly Row[]>;
  toCells: (row: Row) => readonly CsvCell[];
  audit: { actorId: string; action: AuditAction; filters: Record<string, string | boolean> };
  now?: Date;
};

export function csvDownload<Row>({ name, header, batches, toCells, audit, now = new Date() }: ExportOptions<Row>): Response {
  const body = csvStream({
    header,
    batches,
    toCells,
    onEnd: async ({ rows, complete }) => {
      try {
        await recordAudit({ actorId: audit.actorId, action: audit.action, details: { ...audit.filters, rows, complete } });
      } catch (error) {
        // The file has gone out; a lost audit entry must at least be visible to the operator.
        log.error({ err: error, action: audit.action, rows }, 'recording an export in the audit trail failed');
      }
    },
  });
  const filename = `${name}-${now.toISOString().slice(0, 10)}.csv`;
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** A refused export: 400 naming the filters that were not understood; nothing was exported. */
export function badFilterResponse(problems: readonly string[]): Response {
  return jsonError(400, `Nothing was exported: ${problems.join(' ')} Fix the filters on the page and export again.`);
}

/** A URL's query as the record of arrays and strings the filter parsers read. */
export function queryParams(request: Request): Record<string, string[]> {
  const search = new URL(request.url).searchParams;
  return Object.fromEntries([...new Set(search.keys())].map((key) => [key, search.getAll(key)]));
}
