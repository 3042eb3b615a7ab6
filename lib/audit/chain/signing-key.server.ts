// The key that signs the chain's checkpoints and the evidence packs: AUDIT_SIGNING_KEY, or, on
// the embedded store only, one generated on first start into the data directory, readable by
// the server's user alone (as the auth secret is). With DATABASE_URL the environment must give it
// (lib/env.ts refuses to start without): every instance signs with the same key.
import 'server-only';
import { createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getDb } from '@/lib/db';
import { auditSigningKeys } from '@/lib/db/schema';
import { getEnv, InvalidEnvironmentError } from '@/lib/env';
import { once } from '@/lib/platform/database';
import { parseEd25519PrivateKey } from '@/lib/platform/ed25519-private-key';
import { isInMemory } from '@/lib/platform/embedded-database';
import { sha256Hex } from './canonical';
import { publicKeyFingerprint } from './keys';

export type AuditSigningKey = {
  privateKey: KeyObject;
  publicKeyPem: string;
  fingerprint: string;
};

/** The file the embedded store keeps its generated key in. */
export const GENERATED_KEY_FILE = 'audit-signing-key.pem';

export function getAuditSigningKey(): Promise<AuditSigningKey> {
  // Loaded once per configured key: a new AUDIT_SIGNING_KEY (a rotation, in a test) is loaded anew.
  const configured = getEnv().AUDIT_SIGNING_KEY;
  return once(`audit-signing-key:${configured ? sha256Hex(configured) : 'data-dir'}`, async () => {
    const privateKey = await loadPrivateKey();
    const publicKeyPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
    const key = { privateKey, publicKeyPem, fingerprint: publicKeyFingerprint(publicKeyPem) };
    // Every key that ever signed stays listed, so that checkpoints signed before a rotation stay verifiable.
    await (await getDb()).insert(auditSigningKeys).values({ fingerprint: key.fingerprint, publicKey: publicKeyPem }).onConflictDoNothing();
    return key;
  });
}

async function loadPrivateKey(): Promise<KeyObject> {
  const env = getEnv();
  if (env.AUDIT_SIGNING_KEY) return parseEd25519PrivateKey(env.AUDIT_SIGNING_KEY);
  // parseEnv already refuses this; kept so no later change can quietly sign with a per-instance key.
  if (env.DATABASE_URL) throw new InvalidEnvironmentError(['AUDIT_SIGNING_KEY is required with DATABASE_URL']);
  if (isInMemory(env.DATA_DIR)) return generateKeyPairSync('ed25519').privateKey;
  const file = path.resolve(env.DATA_DIR, GENERATED_KEY_FILE);
  try {
    return parseEd25519PrivateKey(await readFile(file, 'utf8'));
  } catch {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    // 'wx': of two processes starting together, one writes and both read what it wrote.
    await writeFile(file, pem, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    return parseEd25519PrivateKey(await readFile(file, 'utf8'));
  }
}

/** Signs the message's UTF-8 bytes with the current key. */
export async function signWithAuditKey(message: string): Promise<{ keyFingerprint: string; signature: string }> {
  const key = await getAuditSigningKey();
  return { keyFingerprint: key.fingerprint, signature: sign(null, Buffer.from(message, 'utf8'), key.privateKey).toString('base64') };
}
