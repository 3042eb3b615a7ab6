// Signing checkpoints: "every N entries or M minutes, whichever comes first" (AUDIT_CHECKPOINT_ENTRIES,
// AUDIT_CHECKPOINT_MINUTES), checked each minute by the audit chain's job, and on demand when an
// evidence pack needs a checkpoint that covers its entries. Each signs the head as it stands.
import 'server-only';
import { desc, eq, sql } from 'drizzle-orm';
import { type Db, getDb } from '@/lib/db';
import { auditCheckpoints, auditEntries } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';
import { canonicalTime } from './canonical';
import { canonicalTimeColumn, readChainHead } from './chain-rows.server';
import { type Checkpoint, checkpointMessage } from './checkpoint';
import { getAuditSigningKey, signWithAuditKey } from './signing-key.server';

/** Signs a checkpoint at the chain's head, unless one is there already; null while the chain is empty. */
export async function signCheckpointAtHead(now = new Date(), db?: Db): Promise<Checkpoint | null> {
  const store = db ?? (await getDb());
  const head = await readChainHead(store);
  if (head.seq === 0) return null;
  const existing = await checkpointAt(store, head.seq);
  if (existing) return existing;
  const key = await getAuditSigningKey();
  const unsigned = { seq: head.seq, hash: head.hash, at: canonicalTime(now), keyFingerprint: key.fingerprint };
  const { keyFingerprint, signature } = await signWithAuditKey(checkpointMessage(unsigned));
  const checkpoint: Checkpoint = { ...unsigned, keyFingerprint, signature };
  // Two instances signing the same head at once: the first stays, the second reads it back.
  await store
    .insert(auditCheckpoints)
    .values({ seq: checkpoint.seq, hash: checkpoint.hash, at: now, keyFingerprint, signature })
    .onConflictDoNothing();
  return (await checkpointAt(store, head.seq))!;
}

async function checkpointAt(db: Db, seq: number): Promise<Checkpoint | undefined> {
  const [row] = await db
    .select({
      seq: auditCheckpoints.seq,
      hash: auditCheckpoints.hash,
      at: canonicalTimeColumn(auditCheckpoints.at),
      keyFingerprint: auditCheckpoints.keyFingerprint,
      signature: auditCheckpoints.signature,
    })
    .from(auditCheckpoints)
    .where(eq(auditCheckpoints.seq, seq));
  return row;
}

/** The newest checkpoint, if any. */
export async function latestCheckpoint(db?: Db): Promise<Checkpoint | undefined> {
  const store = db ?? (await getDb());
  const [row] = await store.select({ seq: auditCheckpoints.seq }).from(auditCheckpoints).orderBy(desc(auditCheckpoints.seq)).limit(1);
  return row ? checkpointAt(store, row.seq) : undefined;
}

/**
 * Signs a checkpoint when one is due: N entries since the last, or M minutes since the first
 * entry not yet covered. Returns it, or null when none was due.
 */
export async function signCheckpointIfDue(now = new Date()): Promise<Checkpoint | null> {
  const env = getEnv();
  const db = await getDb();
  const head = await readChainHead(db);
  const last = await latestCheckpoint(db);
  const coveredSeq = Math.max(last?.seq ?? 0, head.anchor.seq);
  if (head.seq <= coveredSeq) return null;
  if (head.seq - coveredSeq < env.AUDIT_CHECKPOINT_ENTRIES) {
    const [firstUncovered] = await db
      .select({ at: auditEntries.at })
      .from(auditEntries)
      .where(sql`${auditEntries.seq} > ${coveredSeq}`)
      .orderBy(auditEntries.seq)
      .limit(1);
    const waitedMs = firstUncovered ? now.getTime() - firstUncovered.at.getTime() : 0;
    if (waitedMs < env.AUDIT_CHECKPOINT_MINUTES * 60_000) return null;
  }
  return signCheckpointAtHead(now, db);
}

/** The first checkpoint at or after `seq`: one signed now at the head when none covers it yet. */
export async function checkpointCovering(seq: number, now = new Date()): Promise<Checkpoint> {
  const db = await getDb();
  const [row] = await db
    .select({ seq: auditCheckpoints.seq })
    .from(auditCheckpoints)
    .where(sql`${auditCheckpoints.seq} >= ${seq}`)
    .orderBy(auditCheckpoints.seq)
    .limit(1);
  const found = row ? await checkpointAt(db, row.seq) : await signCheckpointAtHead(now, db);
  if (!found) throw new Error(`no checkpoint can cover entry ${seq}: the audit chain is empty`);
  return found;
}
