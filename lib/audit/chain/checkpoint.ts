// A signed checkpoint: "at entry `seq` the chain's hash was `hash`", signed at `at` with the key
// whose fingerprint it names. Its message is the canonical encoding below (docs/audit-chain.md).
import type { KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical';
import { verifySignature } from './keys';

export const CHECKPOINT_FORMAT = 'verification-desk-audit-checkpoint/1';

export type Checkpoint = {
  seq: number;
  hash: string;
  /** UTC to the microsecond (canonicalTime). */
  at: string;
  keyFingerprint: string;
  /** Ed25519 over checkpointMessage(), base64. */
  signature: string;
};

/** The bytes a checkpoint's signature covers. */
export function checkpointMessage(checkpoint: Omit<Checkpoint, 'signature'>): string {
  return canonicalJson({
    format: CHECKPOINT_FORMAT,
    at: checkpoint.at,
    hash: checkpoint.hash,
    keyFingerprint: checkpoint.keyFingerprint,
    seq: checkpoint.seq,
  });
}

export type CheckpointSignature = 'valid' | 'invalid' | 'unknown-key';

/** Checks the signature with the key the checkpoint names, among those given (by fingerprint). */
export function checkpointSignature(checkpoint: Checkpoint, keys: ReadonlyMap<string, KeyObject>): CheckpointSignature {
  const key = keys.get(checkpoint.keyFingerprint);
  if (!key) return 'unknown-key';
  return verifySignature(checkpointMessage(checkpoint), checkpoint.signature, key) ? 'valid' : 'invalid';
}
