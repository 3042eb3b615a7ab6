// Reading the chain back from the database as the verifier reads it: entries with their time in
// the canonical form (to the microsecond, as they were hashed), checkpoints, the head. Shared by
// the periodic check, the JSON Lines export and the evidence pack.
import 'server-only';
import { and, asc, eq, gt, gte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db';
import { auditChainHead, auditCheckpoints, auditEntries } from '@/lib/db/schema';
import type { Checkpoint } from './checkpoint';
import type { ChainEntry } from './entry';
import type { ChainAnchor } from './verify-chain';

const e = auditEntries;
const c = auditCheckpoints;

/** A timestamptz in the canonical form: UTC, microseconds (docs/audit-chain.md). */
export function canonicalTimeColumn(column: typeof e.at | typeof c.at) {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export const chainEntryColumns = {
  seq: e.seq,
  id: e.id,
  at: canonicalTimeColumn(e.at),
  actorId: e.actorId,
  action: e.action,
  targetType: e.targetType,
  targetId: e.targetId,
  details: e.details,
  prev: e.prevHash,
  hash: e.hash,
};

const checkpointColumns = {
  seq: c.seq,
  hash: c.hash,
  at: canonicalTimeColumn(c.at),
  keyFingerprint: c.keyFingerprint,
  signature: c.signature,
};

export type ChainHead = { seq: number; hash: string; anchor: ChainAnchor };

export async function readChainHead(db: Db): Promise<ChainHead> {
  const [head] = await db.select().from(auditChainHead).where(eq(auditChainHead.id, 1));
  if (!head) throw new Error('audit_chain_head has no row: migration 0017 did not run');
  return { seq: head.seq, hash: head.hash, anchor: { seq: head.anchorSeq, hash: head.anchorHash } };
}

/** Every checkpoint from the anchor on, in order. */
export async function readCheckpoints(db: Db, fromSeq = 0): Promise<Checkpoint[]> {
  return db.select(checkpointColumns).from(c).where(gte(c.seq, fromSeq)).orderBy(asc(c.seq));
}

/** The retained entries after `afterSeq`, in the chain's order, `limit` at most. */
export async function readEntriesAfter(db: Db, afterSeq: number, limit: number): Promise<ChainEntry[]> {
  return db.select(chainEntryColumns).from(e).where(gt(e.seq, afterSeq)).orderBy(asc(e.seq)).limit(limit);
}

/** Every retained entry, in order, `batchSize` at a time (keyset on seq): a chain of any length in a batch's memory. */
export async function* entryBatches(db: Db, batchSize = 5000, afterSeq = 0): AsyncGenerator<ChainEntry[]> {
  let after = afterSeq;
  for (;;) {
    const batch = await readEntriesAfter(db, after, batchSize);
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
    after = batch[batch.length - 1]!.seq;
  }
}

/** One target's entries (a verification's history), in the chain's order. */
export async function chainEntriesForTarget(db: Db, targetType: 'verification' | 'staff', targetId: string): Promise<ChainEntry[]> {
  const where: SQL[] = [eq(e.targetType, targetType), eq(e.targetId, targetId)];
  return db
    .select(chainEntryColumns)
    .from(e)
    .where(and(...where))
    .orderBy(asc(e.seq));
}
