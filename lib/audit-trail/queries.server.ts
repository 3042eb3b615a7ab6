// Reading the audit trail back: the audit page's filter as a query, and the entries it selects,
// newest first. The CSV export (lib/export) builds on the same conditions, so both select the
// same rows. Entries are written by lib/audit.
import 'server-only';
import { and, desc, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { AuditAction } from '@/lib/audit/audit-labels';
import { getDb } from '@/lib/db';
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

export async function listAudit(filter: AuditFilter, { limit = 100, offset = 0 } = {}): Promise<AuditEntryRow[]> {
  const db = await getDb();
  const conditions = auditConditions(filter);
  return db
    .select()
    .from(auditEntries)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(desc(auditEntries.at), desc(auditEntries.id))
    .limit(limit)
    .offset(offset);
}
