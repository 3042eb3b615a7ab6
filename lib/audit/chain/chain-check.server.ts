// The server's own check of the chain: the offline verifier's steps over the database, run by the
// audit chain's job (and on an administrator's demand). The verdict is kept in one row so that every
// instance shows the same on the audit page and in /api/ready; a break is logged as an error.
import 'server-only';
import type { KeyObject } from 'node:crypto';
import { createPublicKey } from 'node:crypto';
import { type Db, getDb } from '@/lib/db';
import { auditChainChecks, auditSigningKeys } from '@/lib/db/schema';
import { logger } from '@/lib/platform/log';
import { entryBatches, readChainHead, readCheckpoints } from './chain-rows.server';
import { getAuditSigningKey } from './signing-key.server';
import { type ChainVerdict, ChainVerifier } from './verify-chain';

const log = logger.child({ area: 'audit-chain' });

export type ChainCheck = typeof auditChainChecks.$inferSelect;

/** The public keys that signed checkpoints here: the current one and those kept from before a rotation. */
export async function knownPublicKeys(db: Db): Promise<Map<string, KeyObject>> {
  await getAuditSigningKey(); // makes sure the current key is listed
  const rows = await db.select().from(auditSigningKeys);
  return new Map(rows.map((row) => [row.fingerprint, createPublicKey(row.publicKey)]));
}

/** Verifies every retained entry and checkpoint against the head; records and logs the verdict. */
export async function checkAuditChain(now = new Date()): Promise<ChainVerdict> {
  const db = await getDb();
  // The chain as it stands now: entries and checkpoints written while the check reads belong to the next one.
  const head = await readChainHead(db);
  const checkpoints = (await readCheckpoints(db)).filter((checkpoint) => checkpoint.seq <= head.seq);
  const verifier = new ChainVerifier(head.anchor, checkpoints, await knownPublicKeys(db));
  read: for await (const batch of entryBatches(db, 5000, head.anchor.seq)) {
    for (const entry of batch) {
      if (entry.seq > head.seq) break read;
      if (!verifier.push(entry)) break read;
    }
  }
  const verdict = verifier.finish(head);
  const row = {
    checkedAt: now,
    intact: verdict.intact ? ('yes' as const) : ('no' as const),
    verifiedSeq: verdict.verifiedSeq,
    verifiedCheckpointSeq: verdict.lastCheckpoint?.seq ?? null,
    breakSeq: verdict.break?.seq ?? null,
    breakKind: verdict.break?.kind ?? null,
  };
  await db
    .insert(auditChainChecks)
    .values({ id: 1, ...row })
    .onConflictDoUpdate({ target: auditChainChecks.id, set: row });
  if (verdict.break) {
    log.error({ kind: verdict.break.kind, seq: verdict.break.seq, verifiedSeq: verdict.verifiedSeq }, 'audit chain broken');
  } else {
    log.info(
      { entries: verdict.entries, verifiedSeq: verdict.verifiedSeq, checkpointSeq: row.verifiedCheckpointSeq },
      'audit chain intact',
    );
  }
  return verdict;
}

/** The last check's verdict, whichever instance made it; undefined before the first. */
export async function lastChainCheck(db?: Db): Promise<ChainCheck | undefined> {
  const [row] = await (db ?? (await getDb())).select().from(auditChainChecks);
  return row;
}
