// Reading an Ed25519 private key from configuration: a PKCS#8 PEM (its line breaks may be
// written as \n, as an environment file often has them), or the base64 of its DER bytes, which
// fits on one line (`openssl genpkey -algorithm ed25519 -outform DER | base64 -w0`).
import { createPrivateKey, type KeyObject } from 'node:crypto';

export function parseEd25519PrivateKey(text: string): KeyObject {
  const trimmed = text.trim().replace(/\\n/g, '\n');
  let key: KeyObject;
  try {
    key = trimmed.startsWith('-----BEGIN')
      ? createPrivateKey(trimmed)
      : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
  } catch {
    throw new Error('is not a private key: give a PKCS#8 PEM or the base64 of its DER bytes');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`is a ${key.asymmetricKeyType} key, not an Ed25519 key`);
  return key;
}
