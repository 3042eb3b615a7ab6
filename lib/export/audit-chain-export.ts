// The audit chain as JSON Lines, for an auditor's offline verifier (lib/audit/chain/verify-export.ts,
// docs/audit-chain.md "Export"): the header with the anchor and the head as they stand when the
// export starts, every public key that signed, the checkpoints up to the head, then the retained
// entries up to the head in the chain's order. Entries written while it streams belong to the next
// export, so the file is always one whole chain. Unfiltered: a chain with gaps cannot be verified.
import 'server-only';
import { asc, getTableColumns } from 'drizzle-orm';
import { canonicalTime } from '@/lib/audit/chain/canonical';
import { entryBatches, readChainHead, readCheckpoints } from '@/lib/audit/chain/chain-rows.server';
import { checkpointRecord, entryRecord, headerRecord } from '@/lib/audit/chain/export-format';
import { getAuditSigningKey } from '@/lib/audit/chain/signing-key.server';
import { getDb } from '@/lib/db';
import { auditSigningKeys } from '@/lib/db/schema';
import { EXPORT_BATCH_SIZE } from './register-export';

/** The export's records, batch by batch: the header, keys and checkpoints first, then the entries. */
export async function* auditChainExportBatches(now = new Date(), batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<unknown[]> {
  const db = await getDb();
  await getAuditSigningKey(); // lists the current key even before its first checkpoint
  const head = await readChainHead(db);
  const keys = await db.select(getTableColumns(auditSigningKeys)).from(auditSigningKeys).orderBy(asc(auditSigningKeys.firstUsedAt));
  const checkpoints = (await readCheckpoints(db)).filter((checkpoint) => checkpoint.seq <= head.seq);
  yield [
    headerRecord(canonicalTime(now), head.anchor, { seq: head.seq, hash: head.hash }),
    ...keys.map((key) => ({ type: 'public-key', fingerprint: key.fingerprint, pem: key.publicKey })),
    ...checkpoints.map(checkpointRecord),
  ];
  for await (const batch of entryBatches(db, batchSize, head.anchor.seq)) {
    const upToHead = batch.filter((entry) => entry.seq <= head.seq);
    if (upToHead.length > 0) yield upToHead.map(entryRecord);
    if (upToHead.length < batch.length) return;
  }
}

/** One record per line. */
export function jsonLines(records: readonly unknown[]): string {
  let text = '';
  for (const record of records) text += `${JSON.stringify(record)}\n`;
  return text;
}

/** How many of a batch's records are entries (the export's audit entry counts those). */
export function entryCount(records: readonly unknown[]): number {
  return records.filter((record) => (record as { type?: string }).type === 'entry').length;
}
