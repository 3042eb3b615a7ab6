// Test support only: an empty audit chain (no entries, checkpoints or verdict; the head back at
// the start), and the chain's export read into memory as the offline verifier reads a file.
import { sql } from 'drizzle-orm';
import { GENESIS_HASH } from '@/lib/audit/chain/entry';
import type { Db } from '@/lib/db';
import { auditChainChecks, auditChainHead, auditCheckpoints, auditEntries } from '@/lib/db/schema';
import { auditChainExportBatches, jsonLines } from '@/lib/export/audit-chain-export';

export async function resetAuditChain(db: Db): Promise<void> {
  await db.delete(auditEntries);
  await db.delete(auditCheckpoints);
  await db.delete(auditChainChecks);
  await db.update(auditChainHead).set({ seq: 0, hash: GENESIS_HASH, anchorSeq: 0, anchorHash: GENESIS_HASH }).where(sql`true`);
}

/** The JSON Lines export's text, as the route streams it. */
export async function chainExportText(now = new Date()): Promise<string> {
  let text = '';
  for await (const batch of auditChainExportBatches(now, 3)) text += jsonLines(batch);
  return text;
}
