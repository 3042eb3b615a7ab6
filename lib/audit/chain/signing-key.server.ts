// TEMPORARY stand-in for the lead's module (issue 30): replaced on merging main.
import 'server-only';
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { publicKeyFingerprint } from './keys';

let pair: { privateKey: KeyObject; publicKeyPem: string; fingerprint: string } | undefined;

function keyPair() {
  if (!pair) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    pair = { privateKey, publicKeyPem, fingerprint: publicKeyFingerprint(publicKeyPem) };
  }
  return pair;
}

export async function getAuditSigningKey(): Promise<{ fingerprint: string; publicKeyPem: string }> {
  const { fingerprint, publicKeyPem } = keyPair();
  return { fingerprint, publicKeyPem };
}

export async function signWithAuditKey(message: string): Promise<{ keyFingerprint: string; signature: string }> {
  const { privateKey, fingerprint } = keyPair();
  return { keyFingerprint: fingerprint, signature: sign(null, Buffer.from(message, 'utf8'), privateKey).toString('base64') };
}
