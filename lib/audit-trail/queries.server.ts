// Reading the audit trail back: the audit page's filter as a query, and the entries it selects,
// newest first, a page at a time by keyset (lib/db/keyset.ts). The CSV export (lib/export) builds
// on the same conditions, so both select the same rows. Entries are written by lib/audit.
import 'server-only';
import { and, eq, getTableColumns, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { AuditAction } from '@/lib/audit/audit-labels';
import { getDb } from '@/lib/db';
import {
  cursorColumn,
  type KeyKind,
  keysetCondition,
  keysetOrder,
  type PageCursor,
  type PageLinks,
  pageFrom,
  type SortKey,
} from '@/lib/db/keyset';
import { type AuditEntryRow, auditEntries } from '@/lib/db/schema';
import { startOfDayIn, startOfNextDayIn } from '@/lib/time/display-time';
import { FALLBACK_TIME_ZONE } from '@/lib/time/time-zone';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import type { AuditTrailFilter } from './filter';

export type AuditFilter = {
  actorId?: string;
  action?: AuditAction;
  targetType?: 'verification' | 'staff';
  targetId?: string;
  from?: Date;
  /** Up to and including this instant. */
  to?: Date;
  /** Strictly before this instant: a whole calendar day, to the microsecond, is [day, day after). */
  before?: Date;
};

/**
 * The audit page's filter (calendar days in the display zone, a verification id) as the query's
 * instants and target. The page and its CSV export both pass the zone, so they select the same rows.
 */
export function auditFilterFor(filter: AuditTrailFilter, timeZone: string = FALLBACK_TIME_ZONE): AuditFilter {
  return {
    actorId: filter.actor,
    action: filter.action,
    ...(filter.verification ? { targetType: 'verification' as const, targetId: filter.verification } : {}),
    from: filter.from ? startOfDayIn(filter.from, timeZone) : undefined,
    before: filter.to ? startOfNextDayIn(filter.to, timeZone) : undefined,
  };
}

/** The WHERE conditions of a filter (also used by the CSV export, lib/export). */
export function auditConditions(filter: AuditFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.actorId) conditions.push(eq(auditEntries.actorId, filter.actorId));
  if (filter.action) conditions.push(eq(auditEntries.action, filter.action));
  if (filter.targetType) conditions.push(eq(auditEntries.targetType, filter.targetType));
  if (filter.targetId) conditions.push(eq(auditEntries.targetId, canonicalVerificationId(filter.targetId)));
  if (filter.from) conditions.push(gte(auditEntries.at, filter.from));
  if (filter.to) conditions.push(lte(auditEntries.at, filter.to));
  if (filter.before) conditions.push(lt(auditEntries.at, filter.before));
  return conditions;
}

/** The audit trail's order, newest first, the id breaking ties; a cursor is `<at>~<id>`. */
export const AUDIT_SORT_KEYS: readonly SortKey[] = [
  { column: auditEntries.at, direction: 'desc', kind: 'time' },
  { column: auditEntries.id, direction: 'desc', kind: 'uuid' },
];

export const AUDIT_CURSOR_KINDS: readonly KeyKind[] = AUDIT_SORT_KEYS.map((key) => key.kind);

export type AuditPageEntry = AuditEntryRow & { cursor: string };

/** Entries from the start or from a cursor (backwards from a `before` cursor), `limit` at most. */
export async function listAudit(
  filter: AuditFilter,
  { limit = 100, position }: { limit?: number; position?: PageCursor } = {},
): Promise<AuditPageEntry[]> {
  const db = await getDb();
  const conditions = auditConditions(filter);
  if (position) conditions.push(keysetCondition(AUDIT_SORT_KEYS, position.values, position.side));
  return db
    .select({ ...getTableColumns(auditEntries), cursor: cursorColumn(AUDIT_SORT_KEYS) })
    .from(auditEntries)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(...keysetOrder(AUDIT_SORT_KEYS, position?.side ?? 'after'))
    .limit(limit);
}

/** One page of the audit trail from a page link's cursor (none: the first page), and the links beside it. */
export async function listAuditPage(
  filter: AuditFilter,
  { size = 100, position }: { size?: number; position?: PageCursor } = {},
): Promise<{ entries: AuditPageEntry[]; links: PageLinks }> {
  const rows = await listAudit(filter, { limit: size + 1, position });
  const page = await pageFrom(rows, size, position, () => listAudit(filter, { limit: size + 1 }));
  return { entries: page.rows, links: page.links };
}
