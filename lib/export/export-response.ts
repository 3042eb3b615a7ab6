// The answer of an export route: a CSV download that no cache keeps, named with the day it was
// taken, whose rows are audited when the stream ends — with the count of rows that went out.
import 'server-only';
import { getLocale, getTranslations } from 'next-intl/server';
import { recordAudit } from '@/lib/audit/audit';
import type { AuditAction } from '@/lib/audit/audit-labels';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@/lib/i18n/languages';
import { jsonError } from '@/lib/platform/json-response';
import { logger } from '@/lib/platform/log';
import type { CsvCell, CsvDelimiter } from './csv';
import { csvStream } from './csv-stream';

const log = logger.child({ area: 'export' });

type ExportOptions<Row> = {
  /** The file's name before the date, e.g. "verification-register". */
  name: string;
  header: readonly string[];
  batches: AsyncIterable<readonly Row[]>;
  toCells: (row: Row) => readonly CsvCell[];
  delimiter?: CsvDelimiter;
  audit: { actorId: string; action: AuditAction; filters: Record<string, string | number | boolean> };
  now?: Date;
};

export function csvDownload<Row>({ name, header, batches, toCells, delimiter, audit, now = new Date() }: ExportOptions<Row>): Response {
  const body = csvStream({ header, batches, toCells, delimiter, onEnd: ({ rows, complete }) => auditExportEnd(audit, rows, complete) });
  return attachment(body, { contentType: 'text/csv; charset=utf-8', filename: `${name}-${now.toISOString().slice(0, 10)}.csv` });
}

/** Records an export once its stream ended, with how many rows went out. */
export async function auditExportEnd(audit: ExportOptions<unknown>['audit'], rows: number, complete: boolean): Promise<void> {
  try {
    await recordAudit({ actorId: audit.actorId, action: audit.action, details: { ...audit.filters, rows, complete } });
  } catch (error) {
    // The file has gone out; a lost audit entry must at least be visible to the operator.
    log.error({ err: error, action: audit.action, rows }, 'recording an export in the audit trail failed');
  }
}

/** A file to save, which no cache keeps and no browser sniffs as something else. */
export function attachment(
  body: ReadableStream<Uint8Array>,
  { contentType, filename }: { contentType: string; filename: string },
): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

/** A refused export: 400 naming the filters that were not understood; nothing was exported. */
export async function badFilterResponse(problems: readonly string[]): Promise<Response> {
  const t = await getTranslations('exports.problems');
  return jsonError(400, t('refused', { problems: problems.join(' ') }));
}

/** The exporter's language: what their pages are in (app/i18n-request.ts decides). */
export async function exporterLanguage(): Promise<Language> {
  const locale = await getLocale();
  return isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
}

/** A URL's query as the record of arrays and strings the filter parsers read. */
export function queryParams(request: Request): Record<string, string[]> {
  const search = new URL(request.url).searchParams;
  return Object.fromEntries([...new Set(search.keys())].map((key) => [key, search.getAll(key)]));
}
