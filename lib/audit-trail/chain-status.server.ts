// What the audit page shows of the chain: the last check's verdict (whichever instance made it),
// where the retained entries start, the checkpoint the verdict reached, and the signing keys.
import 'server-only';
import { desc, eq, ne } from 'drizzle-orm';
import { lastChainCheck } from '@/lib/audit/chain/chain-check.server';
import { readChainHead } from '@/lib/audit/chain/chain-rows.server';
import { getAuditSigningKey } from '@/lib/audit/chain/signing-key.server';
import { getDb } from '@/lib/db';
import { auditCheckpoints, auditSigningKeys } from '@/lib/db/schema';

export type ChainStatus = {
  check:
    | { state: 'unchecked' }
    | { state: 'intact'; checkedAt: Date; verifiedSeq: number; checkpoint: { seq: number; at: Date } | null }
    | { state: 'broken'; checkedAt: Date; verifiedSeq: number; breakSeq: number; breakKind: string };
  /** The last purged entry's place (0: nothing purged). */
  anchorSeq: number;
  key: { fingerprint: string; publicKeyPem: string };
  earlierKeys: number;
};

export async function chainStatus(): Promise<ChainStatus> {
  const db = await getDb();
  const [check, head, key] = await Promise.all([lastChainCheck(db), readChainHead(db), getAuditSigningKey()]);
  const earlierKeys = (
    await db
      .select({ fingerprint: auditSigningKeys.fingerprint })
      .from(auditSigningKeys)
      .where(ne(auditSigningKeys.fingerprint, key.fingerprint))
  ).length;
  const base = { anchorSeq: head.anchor.seq, key: { fingerprint: key.fingerprint, publicKeyPem: key.publicKeyPem }, earlierKeys };
  if (!check) return { check: { state: 'unchecked' }, ...base };
  if (check.intact === 'no') {
    return {
      check: {
        state: 'broken',
        checkedAt: check.checkedAt,
        verifiedSeq: check.verifiedSeq,
        breakSeq: check.breakSeq ?? check.verifiedSeq + 1,
        breakKind: check.breakKind ?? 'changed',
      },
      ...base,
    };
  }
  const [checkpoint] =
    check.verifiedCheckpointSeq === null
      ? []
      : await db
          .select({ seq: auditCheckpoints.seq, at: auditCheckpoints.at })
          .from(auditCheckpoints)
          .where(eq(auditCheckpoints.seq, check.verifiedCheckpointSeq))
          .orderBy(desc(auditCheckpoints.seq))
          .limit(1);
  return {
    check: { state: 'intact', checkedAt: check.checkedAt, verifiedSeq: check.verifiedSeq, checkpoint: checkpoint ?? null },
    ...base,
  };
}
