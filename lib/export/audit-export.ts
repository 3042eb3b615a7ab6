// The audit trail as CSV rows for auditors: every column it stores, details as JSON, and beside
// the actor's id their name as the account has it now (the trail itself keeps ids only), read
// newest first in keyset batches so an export of any size holds a batch or two in memory.
import 'server-only';
import { and, type SQL, sql } from 'drizzle-orm';
import { getTranslations } from 'next-intl/server';
import { type AuditFilter, auditConditions } from '@/lib/audit-trail/queries.server';
import { getDb } from '@/lib/db';
import { auditEntries, staffUsers } from '@/lib/db/schema';
import { rowsOf } from '@/lib/platform/database';
import { FALLBACK_TIME_ZONE } from '@/lib/time/time-zone';
import type { CsvCell } from './csv';
import { EXPORT_BATCH_SIZE } from './register-export';
import { selectList, zonedTimestamp, zoneLabel } from './sql-rows';

const a = auditEntries;

/** The header in the exporter's language; the time column names the zone its times are in. */
export async function auditCsvHeader(timeZone: string): Promise<string[]> {
  const t = await getTranslations('exports.audit');
  return [
    t('header.at', { zone: zoneLabel(timeZone) }),
    t('header.actorId'),
    t('header.actorName'),
    t('header.action'),
    t('header.targetType'),
    t('header.targetId'),
    t('header.details'),
  ];
}

function columnsIn(timeZone: string) {
  return {
    id: a.id,
    at: zonedTimestamp(a.at, timeZone),
    actorId: a.actorId,
    actorName: staffUsers.name,
    action: a.action,
    targetType: a.targetType,
    targetId: a.targetId,
    details: a.details,
    // The keyset cursor to the microsecond (a JS Date would round it to the millisecond).
    cursorAt: sql<string>`${a.at}::text`,
  };
}

/** A row as the query returns it: the time already in the file's form (sql-rows.ts). */
export type AuditExportRow = {
  id: string;
  at: string;
  actorId: string | null;
  /** Empty for the system, and once the account is gone. */
  actorName: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, string | number | boolean> | null;
  cursorAt: string;
};

/** Details with their keys in alphabetical order: jsonb keeps its own order, which no reader expects. */
function detailsJson(details: AuditExportRow['details']): string | null {
  if (!details) return null;
  return JSON.stringify(Object.fromEntries(Object.entries(details).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

export function auditCsvCells(row: AuditExportRow): CsvCell[] {
  return [row.at, row.actorId, row.actorName, row.action, row.targetType, row.targetId, detailsJson(row.details)];
}

/** The filtered audit trail, newest first, `batchSize` entries at a time, times in `timeZone`. */
export async function* auditExportBatches(
  filter: AuditFilter,
  timeZone: string = FALLBACK_TIME_ZONE,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<AuditExportRow[]> {
  const conditions = auditConditions(filter);
  const columns = columnsIn(timeZone);
  const db = await getDb();
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const keyset: SQL[] = after ? [sql`(${a.at}, ${a.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`] : [];
    const where = [...conditions, ...keyset];
    const batch = rowsOf<AuditExportRow>(
      await db.execute(sql`
        select ${selectList(columns)}
        from ${a}
        left join ${staffUsers} on ${staffUsers.id} = ${a.actorId}
        ${where.length > 0 ? sql`where ${and(...where)}` : sql``}
        order by ${a.at} desc, ${a.id} desc
        limit ${batchSize}`),
    );
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
    const last = batch[batch.length - 1]!;
    after = { at: last.cursorAt, id: last.id };
  }
}
