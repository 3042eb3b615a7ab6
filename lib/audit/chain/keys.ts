// TEMPORARY stand-in for the lead's module (issue 30): replaced on merging main.
import { createHash, createPublicKey, verify } from 'node:crypto';

export function publicKeyFingerprint(publicKeyPem: string): string {
  const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('hex');
}

export function verifySignature(message: string, signatureBase64: string, publicKeyPem: string): boolean {
  try {
    return verify(null, Buffer.from(message, 'utf8'), createPublicKey(publicKeyPem), Buffer.from(signatureBase64, 'base64'));
  } catch {
    return false;
  }
}
