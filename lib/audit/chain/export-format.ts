// The JSON Lines form of the audit chain that an auditor takes away (docs/audit-chain.md,
// "Export"): a header line, the public keys the Desk has signed with, the checkpoints, then
// every retained entry in the chain's order. One line per record, so a file of millions of
// entries is written and checked a line at a time.
import { z } from 'zod';
import type { Checkpoint } from './checkpoint';
import type { ChainEntry } from './entry';
import type { ChainAnchor } from './verify-chain';

export const CHAIN_EXPORT_FORMAT = 'verification-desk-audit/1';

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits');
const seq = z.number().int().nonnegative();
const time = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, 'must be UTC to the microsecond');
const position = z.object({ seq, hash });

const headerLine = z.object({
  type: z.literal('export'),
  format: z.literal(CHAIN_EXPORT_FORMAT),
  exportedAt: time,
  /** The last purged entry (seq 0 when none was purged): the retained entries follow its hash. */
  anchor: position,
  /** The chain's last entry when the export was taken: the file holds every entry up to it. */
  head: position,
});

const publicKeyLine = z.object({ type: z.literal('public-key'), fingerprint: hash, pem: z.string() });

const checkpointLine = z.object({
  type: z.literal('checkpoint'),
  seq,
  hash,
  at: time,
  keyFingerprint: hash,
  signature: z.string().min(1),
});

const entryLine = z.object({
  type: z.literal('entry'),
  seq,
  id: z.string(),
  at: time,
  actorId: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable(),
  prev: hash,
  hash,
});

export const chainExportLine = z.discriminatedUnion('type', [headerLine, publicKeyLine, checkpointLine, entryLine]);
export type ChainExportLine = z.infer<typeof chainExportLine>;

export function headerRecord(exportedAt: string, anchor: ChainAnchor, head: ChainAnchor): ChainExportLine {
  return { type: 'export', format: CHAIN_EXPORT_FORMAT, exportedAt, anchor, head };
}

export function checkpointRecord(checkpoint: Checkpoint): ChainExportLine {
  return { type: 'checkpoint', ...checkpoint };
}

export function entryRecord(entry: ChainEntry): ChainExportLine {
  return { type: 'entry', ...entry };
}
