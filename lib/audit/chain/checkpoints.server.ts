// TEMPORARY stand-in for the lead's module (issue 30): replaced on merging main.
import 'server-only';
import { checkpointMessage } from './checkpoint-message';
import { signWithAuditKey } from './signing-key.server';

export type Checkpoint = { seq: number; hash: string; at: string; keyFingerprint: string; signature: string };

export async function checkpointCovering(seq: number): Promise<Checkpoint> {
  const content = { seq, hash: '0'.repeat(64), at: new Date().toISOString() };
  const { keyFingerprint, signature } = await signWithAuditKey(checkpointMessage(content));
  return { ...content, keyFingerprint, signature };
}
