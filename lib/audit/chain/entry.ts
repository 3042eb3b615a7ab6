// TEMPORARY stand-in for the lead's module (issue 30): replaced on merging main.
import { canonicalJson, sha256Hex } from './canonical';

export type ChainEntry = {
  seq: number;
  id: string;
  at: string;
  actorId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, string | number | boolean> | null;
  prev: string;
  hash: string;
};

export function entryHash(entry: Omit<ChainEntry, 'hash'> & { hash?: string }): string {
  const { hash: _hash, ...content } = entry;
  return sha256Hex(canonicalJson(content));
}
