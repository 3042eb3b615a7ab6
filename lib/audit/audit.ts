// The audit trail: who did what to which verification or account, and when (UTC). It holds
// ids and codes only — never a name, e-mail address or phone number — and is purged after
// AUDIT_RETENTION_DAYS.
import 'server-only';
import { and, desc, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
import { type Db, getDb } from '@/lib/db';
import { type AuditEntryRow, auditEntries } from '@/lib/db/schema';
import { startOfDayIn, startOfNextDayIn } from '@/lib/time/display-time';
import { FALLBACK_TIME_ZONE } from '@/lib/time/time-zone';
import { canonicalVerificationId } from '@/lib/verifications/verification-id';
import type { AuditTrailFilter } from './audit-filter';
import type { AuditAction } from './audit-labels';

type Executor = Pick<Db, 'insert'>;

export type AuditEvent = {
  actorId: string | null;
  action: AuditAction;
  target?: { type: 'verification' | 'staff'; id: string };
  details?: Record<string, string | number | boolean>;
};

/** Records an event; pass a transaction to make it part of the change it describes. */
export async function recordAudit(event: AuditEvent, executor?: Executor): Promise<void> {
  await auditInsert(executor ?? (await getDb()), withCanonicalTarget(event));
}

/** One verification, one audit identity: its id as the register spells it (verification-id.ts). */
function withCanonicalTarget(event: AuditEvent): AuditEvent {
  if (event.target?.type !== 'verification') return event;
  return { ...event, target: { type: 'verification', id: canonicalVerificationId(event.target.id) } };
}

/**
 * The INSERT of an event, not yet run: to await, or to embed in a larger statement (a
 * data-modifying WITH) that must record the event together with the change it describes.
 */
export function auditInsert(executor: Executor, event: AuditEvent) {
  return executor.insert(auditEntries).values({
    actorId: event.actorId,
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    details: event.details ?? null,
  });
}

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

/** Deletes entries older than the retention period; returns how many went. */
export async function purgeExpiredAudit(retentionDays: number, now = new Date()): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
  const deleted = await db.delete(auditEntries).where(lt(auditEntries.at, cutoff)).returning({ id: auditEntries.id });
  return deleted.length;
}

/**
 * Records an event unless the same person did the same to the same target within `withinMs`:
 * a page that re-renders itself (live updates, refresh) is one view, not ten.
 */
export async function recordAuditUnlessRecent(given: AuditEvent, withinMs: number, now = new Date()): Promise<void> {
  const event = withCanonicalTarget(given);
  const db = await getDb();
  const conditions: SQL[] = [eq(auditEntries.action, event.action), gte(auditEntries.at, new Date(now.getTime() - withinMs))];
  if (event.actorId) conditions.push(eq(auditEntries.actorId, event.actorId));
  if (event.target) conditions.push(eq(auditEntries.targetId, event.target.id));
  const [recent] = await db
    .select({ id: auditEntries.id })
    .from(auditEntries)
    .where(and(...conditions))
    .limit(1);
  if (!recent) await recordAudit(event, db);
}
