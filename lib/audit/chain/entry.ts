// An audit entry as the chain sees it, and its hash: the same bytes as the database's
// audit_entry_canonical() (migration 0017), so the server's check and an auditor's offline
// verifier recompute exactly what the database wrote.
import { canonicalJson, sha256Hex } from './canonical';

/** The hash the first entry follows. */
export const GENESIS_HASH = '0'.repeat(64);

export type ChainEntry = {
  /** Its place in the chain, from 1. Not hashed: the links prove the order. */
  seq: number;
  id: string;
  /** UTC to the microsecond, e.g. 2026-11-29T13:41:08.552000Z (canonicalTime). */
  at: string;
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, string | number | boolean> | null;
  /** The hash of the entry before it. */
  prev: string;
  hash: string;
};

/** The entry's content and the hash it follows, as the canonical encoding hashes them. */
export function entryCanonical(entry: Omit<ChainEntry, 'seq' | 'hash'>): string {
  return canonicalJson({
    action: entry.action,
    actorId: entry.actorId,
    at: entry.at,
    details: entry.details,
    id: entry.id,
    prev: entry.prev,
    targetId: entry.targetId,
    targetType: entry.targetType,
  });
}

/** What the entry's hash must be, recomputed from its content. */
export function entryHash(entry: Omit<ChainEntry, 'seq' | 'hash'>): string {
  return sha256Hex(entryCanonical(entry));
}
