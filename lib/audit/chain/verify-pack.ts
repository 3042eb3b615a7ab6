// Checks an evidence pack (docs/evidence-pack.md) with nothing from the Desk but its public keys:
// each audit entry's hash against its content, the checkpoint's signature and reach, the
// digests that say which part changed, and the pack's own signature. Pure (Node's crypto only),
// so the audit CLI runs it offline and an auditor can read it as a reference verifier. The first
// failure found is the verdict, in words naming the field or the entry.
import type { KeyObject } from 'node:crypto';
import { type CanonicalValue, canonicalJson, sha256Hex } from './canonical';
import { type Checkpoint, checkpointSignature } from './checkpoint';
import { type ChainEntry, entryHash } from './entry';
import { publicKeyFingerprint, publicKeysFromPem, verifySignature } from './keys';

export const EVIDENCE_PACK_FORMAT = 'verification-desk-evidence/1';

export type PackAuditEntry = ChainEntry;
export type PackCheckpoint = Checkpoint;

/** Fields that are not digested: the signature (over everything else) and the digests themselves. */
const UNDIGESTED = new Set(['signature', 'digests']);

export type PackVerdict =
  | {
      ok: true;
      verificationId: string;
      entries: number;
      checkpoint: { seq: number; at: string; keyFingerprint: string };
      keyFingerprint: string;
    }
  | { ok: false; reason: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * SHA-256 of the canonical JSON of each part of a pack, by path: a top-level object's fields
 * (`verification.identifiedName`), an array's items (`history[3]`), else the value itself.
 * Signed with the rest, they let a verifier name what changed instead of only "the signature
 * does not match".
 */
export function packDigests(pack: Record<string, unknown>): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const [key, value] of Object.entries(pack)) {
    if (UNDIGESTED.has(key) || value === undefined) continue;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) digests[`${key}[${i}]`] = sha256Hex(canonicalJson(item as CanonicalValue));
    } else if (isObject(value))
      for (const [field, inner] of Object.entries(value)) {
        if (inner !== undefined) digests[`${key}.${field}`] = sha256Hex(canonicalJson(inner as CanonicalValue));
      }
    else digests[key] = sha256Hex(canonicalJson(value as CanonicalValue));
  }
  return digests;
}

/** The text the pack's signature covers: its canonical JSON without `signature`. */
export function packSigningText(pack: Record<string, unknown>): string {
  const { signature: _signature, ...signed } = pack;
  return canonicalJson(signed as CanonicalValue);
}

const fail = (reason: string): PackVerdict => ({ ok: false, reason });

/**
 * Verifies `pack` (parsed JSON) against the public keys the auditor trusts: PEM texts (each may
 * hold several keys, one per rotation), or keys by fingerprint as publicKeysFromPem reads them.
 */
export function verifyPack(pack: unknown, trusted: readonly string[] | ReadonlyMap<string, KeyObject>): PackVerdict {
  try {
    const keys = new Map<string, KeyObject>();
    if (Array.isArray(trusted))
      for (const pem of trusted) for (const [fingerprint, key] of publicKeysFromPem(pem)) keys.set(fingerprint, key);
    else for (const [fingerprint, key] of trusted as ReadonlyMap<string, KeyObject>) keys.set(fingerprint, key);
    return check(pack, keys);
  } catch (error) {
    // canonicalJson refuses what no pack holds (a fraction, an exotic value): a changed pack.
    return fail(`the pack cannot be read as a pack: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function check(pack: unknown, keys: ReadonlyMap<string, KeyObject>): PackVerdict {
  if (!isObject(pack)) return fail('the file does not hold a JSON object');
  if (pack.format !== EVIDENCE_PACK_FORMAT) return fail(`format: expected "${EVIDENCE_PACK_FORMAT}", found ${JSON.stringify(pack.format)}`);
  const { signature, digests, auditEntries, checkpoint, verification, history } = pack;
  if (!isObject(signature) || typeof signature.keyFingerprint !== 'string' || typeof signature.value !== 'string')
    return fail('signature: missing or not { keyFingerprint, value }');
  if (!isObject(digests)) return fail('digests: missing');
  if (!Array.isArray(auditEntries)) return fail('auditEntries: missing');
  if (!isObject(checkpoint)) return fail('checkpoint: missing');
  if (!isObject(verification) || typeof verification.id !== 'string') return fail('verification.id: missing');
  if (!Array.isArray(history)) return fail('history: missing');

  // 1. Each audit entry against its own hash: the audit trail's evidence, entry by entry.
  let highestSeq = 0;
  for (const [i, raw] of auditEntries.entries()) {
    if (!isObject(raw) || typeof raw.hash !== 'string' || typeof raw.seq !== 'number')
      return fail(`auditEntries[${i}]: not an audit entry`);
    const entry = raw as unknown as ChainEntry;
    if (entryHash(entry) !== entry.hash)
      return fail(`auditEntries[${i}] (seq ${entry.seq}, id ${String(entry.id)}): its content does not match its hash, so it was changed`);
    if (entry.targetType !== 'verification' || entry.targetId !== verification.id)
      return fail(`auditEntries[${i}] (seq ${entry.seq}): it is not about verification ${verification.id}`);
    highestSeq = Math.max(highestSeq, entry.seq);
  }

  // 2. The checkpoint: signed by a trusted key, and reaching every entry.
  const cp = checkpoint as unknown as PackCheckpoint;
  const checkpointVerdict = checkpointSignature(cp, keys);
  if (checkpointVerdict === 'unknown-key')
    return fail(`checkpoint: signed with key ${String(cp.keyFingerprint)}, which is not one of the public keys given`);
  if (checkpointVerdict === 'invalid') return fail(`checkpoint (seq ${cp.seq}): its signature does not match its content`);
  if (!(cp.seq >= highestSeq)) return fail(`checkpoint: seq ${cp.seq} does not cover audit entry seq ${highestSeq}`);

  // 3. The history's references: each names an entry of the pack, by id, seq and hash.
  const byId = new Map((auditEntries as ChainEntry[]).map((entry) => [entry.id, entry]));
  for (const [i, item] of history.entries()) {
    const references = isObject(item) && Array.isArray(item.audit) ? item.audit : [];
    for (const reference of references) {
      const entry = isObject(reference) ? byId.get(String(reference.id)) : undefined;
      if (!entry || entry.seq !== reference.seq || entry.hash !== reference.hash)
        return fail(`history[${i}]: refers to audit entry ${JSON.stringify(reference)}, which the pack does not hold as such`);
    }
  }

  // 4. The digests: which part changed since signing, named.
  const expected = packDigests(pack);
  for (const [path, digest] of Object.entries(expected)) {
    if (!(path in digests)) return fail(`${path}: added after the pack was signed`);
    if (digests[path] !== digest) return fail(`${path}: changed after the pack was signed`);
  }
  for (const path of Object.keys(digests)) {
    if (!(path in expected)) return fail(`${path}: removed after the pack was signed`);
  }

  // 5. The pack's signature, with a key the auditor trusts.
  const packKey = keys.get(signature.keyFingerprint);
  if (!packKey) return fail(`signature: made with key ${signature.keyFingerprint}, which is not one of the public keys given`);
  if (!verifySignature(packSigningText(pack), signature.value, packKey)) return fail('signature: does not match the pack’s content');

  // The key the pack carries is a convenience: it must at least be the one it names.
  const carried = pack.publicKey;
  if (isObject(carried) && typeof carried.pem === 'string' && publicKeyFingerprint(carried.pem) !== carried.fingerprint)
    return fail('publicKey: its fingerprint is not the fingerprint of its key');

  return {
    ok: true,
    verificationId: verification.id,
    entries: auditEntries.length,
    checkpoint: { seq: cp.seq, at: cp.at, keyFingerprint: cp.keyFingerprint },
    keyFingerprint: signature.keyFingerprint,
  };
}
