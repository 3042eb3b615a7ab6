// Public keys of the chain's signing key (Ed25519): their fingerprint, reading them from a PEM
// file (an auditor's copy may hold several, one per rotation), and checking a signature. Needs
// nothing but Node's crypto, so the offline verifier can use it.
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';

/** SHA-256 of the key's DER SubjectPublicKeyInfo, in lowercase hex: what docs/audit-chain.md calls its fingerprint. */
export function publicKeyFingerprint(publicKey: string | KeyObject): string {
  const key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
  return createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** The fingerprint in groups of four, as the audit page shows it and an auditor reads it aloud. */
export function groupedFingerprint(fingerprint: string): string {
  return fingerprint.match(/.{1,4}/g)?.join(' ') ?? fingerprint;
}

/** Every Ed25519 public key in a PEM text, by fingerprint; text between the blocks is ignored. */
export function publicKeysFromPem(text: string): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const block of text.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? []) {
    const key = createPublicKey(block);
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType} key is not an Ed25519 key`);
    keys.set(publicKeyFingerprint(key), key);
  }
  return keys;
}

/** Whether `signature` (base64) is the key's Ed25519 signature of the message's UTF-8 bytes. */
export function verifySignature(message: string, signature: string, publicKey: string | KeyObject): boolean {
  try {
    return verify(null, Buffer.from(message, 'utf8'), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
