// TEMPORARY stand-in for the lead's checkpoint format (issue 30): replaced on merging main.
import { canonicalJson } from './canonical';

export function checkpointMessage(checkpoint: { seq: number; hash: string; at: string }): string {
  return canonicalJson({ seq: checkpoint.seq, hash: checkpoint.hash, at: checkpoint.at });
}
