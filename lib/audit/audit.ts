// The audit trail's writer: who did what to which verification or account, and when (UTC). It
// holds ids and codes only — never a name, e-mail address or phone number — and is purged after
// AUDIT_RETENTION_DAYS. It sits below identity and the features, which all record through it;
// reading the trail back for people is lib/audit-trail.
import 'server-only';
import { and, eq, gte, lt, lte, min, type SQL } from 'drizzle-orm';
import { type Db, getDb } from '@/lib/db';
import { auditChainHead, auditEntries } from '@/lib/db/schema';
import { deleteBatch, type PurgeBatchOptions, purgeInBatches } from '@/lib/platform/batched-purge';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import type { AuditAction } from './audit-labels';
import { readChainHead } from './chain/chain-rows.server';
import { checkpointCovering } from './chain/checkpoints.server';

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

/** Records several events in one INSERT (a purge's batch); pass the transaction of the change they describe. */
export async function recordAudits(events: readonly AuditEvent[], executor?: Executor): Promise<void> {
  if (events.length === 0) return;
  await (executor ?? (await getDb())).insert(auditEntries).values(events.map((event) => auditValues(withCanonicalTarget(event))));
}

/** One verification, one audit identity: its id as the register spells it (lib/verification-service/contract/verification-id.ts). */
function withCanonicalTarget(event: AuditEvent): AuditEvent {
  if (event.target?.type !== 'verification') return event;
  return { ...event, target: { type: 'verification', id: canonicalVerificationId(event.target.id) } };
}

/**
 * The INSERT of an event, not yet run: to await, or to embed in a larger statement (a
 * data-modifying WITH) that must record the event together with the change it describes.
 */
export function auditInsert(executor: Executor, event: AuditEvent) {
  return executor.insert(auditEntries).values(auditValues(event));
}

function auditValues(event: AuditEvent) {
  // The chain hashes details in a canonical form that has whole numbers only (docs/audit-chain.md).
  for (const [key, value] of Object.entries(event.details ?? {})) {
    if (typeof value === 'number' && !Number.isSafeInteger(value))
      throw new Error(`audit detail ${key} must be a whole number, not ${value}`);
  }
  return {
    actorId: event.actorId,
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    details: event.details ?? null,
  };
}

/**
 * Deletes the entries past the retention period, oldest first, a batch per statement; returns how
 * many went. The chain stays verifiable (docs/audit-chain.md, "Retention"): the head keeps the last
 * purged entry's place and hash as its anchor, and a signed checkpoint at or after it, kept, attests
 * it. What goes is a prefix of the chain: up to the first entry still within the period.
 */
export async function purgeExpiredAudit(retentionDays: number, now = new Date(), options?: PurgeBatchOptions): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
  const head = await readChainHead(db);
  const [firstKept] = await db
    .select({ seq: min(auditEntries.seq) })
    .from(auditEntries)
    .where(gte(auditEntries.at, cutoff));
  const lastPurged = (firstKept?.seq ?? head.seq + 1) - 1;
  if (lastPurged <= head.anchor.seq) return 0;
  await checkpointCovering(lastPurged, now);
  const [anchor] = await db.select({ hash: auditEntries.hash }).from(auditEntries).where(eq(auditEntries.seq, lastPurged));
  if (!anchor) return 0; // Another instance's purge took it meanwhile.
  // The anchor moves first: a check or export from here on starts after it, whatever is left to delete.
  await db
    .update(auditChainHead)
    .set({ anchorSeq: lastPurged, anchorHash: anchor.hash })
    .where(and(eq(auditChainHead.id, 1), lt(auditChainHead.anchorSeq, lastPurged)));
  return purgeInBatches(
    (limit) =>
      deleteBatch(db, {
        table: auditEntries,
        key: auditEntries.id,
        where: lte(auditEntries.seq, lastPurged),
        orderBy: auditEntries.seq,
        limit,
      }),
    options,
  );
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
