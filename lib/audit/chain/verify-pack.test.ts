// The offline check of an evidence pack, on packs signed here with real Ed25519 keys: an intact
// pack verifies; a change anywhere (a name, an entry's details, the checkpoint, a history line)
// fails with a reason naming where; a pack signed by another key fails.
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkpointMessage } from './checkpoint';
import { type ChainEntry, entryHash } from './entry';
import { publicKeyFingerprint } from './keys';
import { EVIDENCE_PACK_FORMAT, packDigests, packSigningText, verifyPack } from './verify-pack';

type Key = { privateKey: KeyObject; pem: string; fingerprint: string };

function newKey(): Key {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return { privateKey, pem, fingerprint: publicKeyFingerprint(pem) };
}

const signText = (key: Key, text: string) => sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64');

const ID = '7f3c9a52-1d4e-4b8a-9c0f-2e5d6a7b8c9d';

function chainEntry(seq: number, action: string, details: ChainEntry['details'], prev: string): ChainEntry {
  const content = {
    seq,
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    at: `2026-11-2${seq % 10}T10:00:00.000000Z`,
    actorId: action === 'verification.status_changed' ? null : 'staff-soren',
    action,
    targetType: 'verification',
    targetId: ID,
    details,
    prev,
  };
  return { ...content, hash: entryHash(content) };
}

/** A pack as the Desk makes one, signed with `key` (and its checkpoint with `checkpointKey`). */
function signedPack(key: Key, checkpointKey: Key = key): Record<string, unknown> {
  const created = chainEntry(3, 'verification.created', null, 'a'.repeat(64));
  const completed = chainEntry(7, 'verification.status_changed', { status: 'completed', previous: 'pending' }, 'b'.repeat(64));
  const checkpointContent = { seq: 9, hash: 'c'.repeat(64), at: '2026-11-29T13:41:08.000000Z', keyFingerprint: checkpointKey.fingerprint };
  const unsigned = {
    format: EVIDENCE_PACK_FORMAT,
    generatedAt: '2026-11-29T13:41:08.552Z',
    generatedBy: { id: 'staff-soren', name: 'Søren Kierkegaard' },
    language: 'fr',
    timeZone: 'Europe/Brussels',
    verification: {
      id: ID,
      requestedName: 'Joëlle Straß',
      purpose: 'legal_obligations',
      personLanguage: 'fr',
      channels: { shareableLink: true, email: false, sms: false },
      createdAt: '2026-11-23T10:00:00.000Z',
      createdBy: { id: 'staff-soren', name: 'Søren Kierkegaard' },
      status: 'completed',
      identifiedName: 'Joëlle Straß',
      identifiedAt: '2026-11-27T10:00:00.000Z',
      method: 'passport',
      failureReason: null,
      keptUntil: '2027-11-27T10:00:00.000Z',
      nameReview: null,
      serviceRecord: 'read',
    },
    history: [
      { at: created.at, until: null, event: 'created', by: null, facts: {}, audit: [{ id: created.id, seq: 3, hash: created.hash }] },
      {
        at: completed.at,
        until: null,
        event: 'status_changed',
        by: null,
        facts: { status: 'completed' },
        audit: [{ id: completed.id, seq: 7, hash: completed.hash }],
      },
    ],
    historyTruncated: false,
    auditEntries: [created, completed],
    checkpoint: { ...checkpointContent, signature: signText(checkpointKey, checkpointMessage(checkpointContent)) },
    publicKey: { fingerprint: key.fingerprint, pem: key.pem },
    doesNotKeep: ['email_address', 'phone_number', 'document_images'],
  };
  const withDigests = { ...unsigned, digests: packDigests(unsigned) };
  return { ...withDigests, signature: { keyFingerprint: key.fingerprint, value: signText(key, packSigningText(withDigests)) } };
}

/** The pack after a round trip through its file, changed by `change`. */
function changed(pack: Record<string, unknown>, change: (copy: any) => void): unknown {
  const copy = JSON.parse(JSON.stringify(pack));
  change(copy);
  return copy;
}

const desk = newKey();
const pack = signedPack(desk);

describe('verifyPack', () => {
  it('finds an intact pack intact, after a round trip through its indented file', () => {
    const parsed = JSON.parse(JSON.stringify(pack, null, 2));
    expect(verifyPack(parsed, [desk.pem])).toEqual({
      ok: true,
      verificationId: ID,
      entries: 2,
      checkpoint: { seq: 9, at: '2026-11-29T13:41:08.000000Z', keyFingerprint: desk.fingerprint },
      keyFingerprint: desk.fingerprint,
    });
  });

  it('names the field whose value changed: the identified name, one letter', () => {
    const verdict = verifyPack(
      changed(pack, (copy) => (copy.verification.identifiedName = 'Joëlle Strass')),
      [desk.pem],
    );
    expect(verdict).toEqual({ ok: false, reason: 'verification.identifiedName: changed after the pack was signed' });
  });

  it('names the audit entry whose details changed, even when its digest was recomputed', () => {
    const tampered = changed(pack, (copy) => (copy.auditEntries[1].details.status = 'failed')) as Record<string, unknown>;
    const rehashed = { ...tampered, digests: packDigests(tampered) };
    expect(verifyPack(rehashed, [desk.pem])).toEqual({
      ok: false,
      reason: expect.stringMatching(/^auditEntries\[1\] \(seq 7, id [\w-]+\): its content does not match its hash, so it was changed$/),
    });
  });

  it('refuses a change whose digest was recomputed: the signature no longer matches', () => {
    const tampered = changed(pack, (copy) => (copy.verification.status = 'failed')) as Record<string, unknown>;
    const rehashed = { ...tampered, digests: packDigests(tampered) };
    expect(verifyPack(rehashed, [desk.pem])).toEqual({ ok: false, reason: 'signature: does not match the pack’s content' });
  });

  it('names a history line removed, or one added', () => {
    expect(
      verifyPack(
        changed(pack, (copy) => copy.history.pop()),
        [desk.pem],
      ),
    ).toEqual({
      ok: false,
      reason: 'history[1]: removed after the pack was signed',
    });
    expect(
      verifyPack(
        changed(pack, (copy) => copy.doesNotKeep.push('nothing')),
        [desk.pem],
      ),
    ).toEqual({
      ok: false,
      reason: 'doesNotKeep[3]: added after the pack was signed',
    });
  });

  it('refuses a checkpoint that does not cover the entries or whose signature does not match', () => {
    expect(
      verifyPack(
        changed(pack, (copy) => (copy.checkpoint.seq = 5)),
        [desk.pem],
      ),
    ).toEqual({
      ok: false,
      reason: 'checkpoint (seq 5): its signature does not match its content',
    });
    // Signed as it stands, but reaching only entry 5 of the two entries' 3 and 7.
    const short = signedPack(desk);
    const content = { seq: 5, hash: 'c'.repeat(64), at: '2026-11-29T13:41:08.000000Z', keyFingerprint: desk.fingerprint };
    (short as any).checkpoint = { ...content, signature: signText(desk, checkpointMessage(content)) };
    expect(verifyPack(short, [desk.pem])).toEqual({ ok: false, reason: 'checkpoint: seq 5 does not cover audit entry seq 7' });
  });

  it('refuses a pack signed by another key, naming the key, and accepts it once that key is given', () => {
    const other = newKey();
    const foreign = signedPack(other, desk);
    expect(verifyPack(foreign, [desk.pem])).toEqual({
      ok: false,
      reason: `signature: made with key ${other.fingerprint}, which is not one of the public keys given`,
    });
    expect(verifyPack(foreign, [desk.pem, other.pem]).ok).toBe(true);
  });

  it('refuses a pack re-signed by another key that claims the Desk’s fingerprint', () => {
    const other = newKey();
    const forged = changed(pack, (copy) => (copy.verification.method = 'id_card')) as Record<string, unknown>;
    const { signature: _old, ...unsigned } = forged;
    const withDigests = { ...unsigned, digests: packDigests(unsigned) };
    const reSigned = {
      ...withDigests,
      signature: { keyFingerprint: desk.fingerprint, value: signText(other, packSigningText(withDigests)) },
    };
    expect(verifyPack(reSigned, [desk.pem])).toEqual({ ok: false, reason: 'signature: does not match the pack’s content' });
  });

  it('refuses what is not a pack of this format', () => {
    expect(verifyPack([], [desk.pem])).toEqual({ ok: false, reason: 'the file does not hold a JSON object' });
    expect(
      verifyPack(
        changed(pack, (copy) => (copy.format = 'other/1')),
        [desk.pem],
      ),
    ).toEqual({
      ok: false,
      reason: 'format: expected "verification-desk-evidence/1", found "other/1"',
    });
    expect(
      verifyPack(
        changed(pack, (copy) => (copy.verification.identifiedAt = 1.5)),
        [desk.pem],
      ).ok,
    ).toBe(false);
  });
});
