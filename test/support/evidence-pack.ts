// Test support only: an evidence pack as buildEvidencePack makes one, with the names whose
// accents a PDF must keep (é, ë, ø, ß, ř), for the PDF's tests and its screenshots.
import { sha256Hex } from '@/lib/audit/chain/canonical';
import type { EvidencePack } from '@/lib/verifications/evidence/pack-format';

/** Fingerprints and hashes shaped as the real ones: SHA-256 in lowercase hex. */
export const PACK_KEY = sha256Hex('the Desk’s current key');
export const CHECKPOINT_KEY = sha256Hex('the key before the rotation');
export const sampleHash = (n: number) => sha256Hex(`entry ${n}`);

/** A pack as buildEvidencePack makes one: a completed request whose names differ, reviewed. */
export function samplePack(language: 'en' | 'fr' | 'nl'): EvidencePack {
  const hash = sampleHash;
  return {
    format: 'verification-desk-evidence/1',
    generatedAt: '2026-11-29T13:41:08.552Z',
    generatedBy: { id: 'staff-soren', name: 'Søren Kierkegaard' },
    language,
    timeZone: 'Europe/Brussels',
    verification: {
      id: '7f3c9a52-1d4e-4b8a-9c0f-2e5d6a7b8c9d',
      requestedName: 'Joëlle Straß',
      purpose: 'legal_obligations',
      personLanguage: 'fr',
      channels: { shareableLink: true, email: true, sms: false },
      createdAt: '2026-11-20T09:15:00.000Z',
      createdBy: { id: 'staff-antonin', name: 'Antonín Dvořák' },
      status: 'completed',
      identifiedName: 'Joëlle Strass-Dvořák',
      identifiedAt: '2026-11-21T16:02:00.000Z',
      method: 'passport',
      failureReason: null,
      keptUntil: '2027-11-21T16:02:00.000Z',
      nameReview: {
        decision: 'same_person',
        decidedAt: '2026-11-22T10:30:00.000Z',
        decidedBy: { id: 'staff-soren', name: 'Søren Kierkegaard' },
      },
      serviceRecord: 'read',
    },
    history: [
      {
        at: '2026-11-20T09:15:00.000Z',
        until: null,
        event: 'created',
        by: { id: 'staff-antonin', name: 'Antonín Dvořák' },
        facts: { shareableLink: true, email: true, sms: false, personLanguage: 'fr' },
        audit: [{ id: 'a1', seq: 101, hash: hash(1) }],
      },
      {
        at: '2026-11-21T16:02:01.000Z',
        until: null,
        event: 'status_changed',
        by: null,
        facts: { status: 'completed', previous: 'pending', viaWebhook: true, failureReason: null },
        audit: [{ id: 'a2', seq: 140, hash: hash(2) }],
      },
      {
        at: '2026-11-22T10:00:00.000Z',
        until: '2026-11-22T10:06:00.000Z',
        event: 'viewed',
        by: { id: 'staff-soren', name: 'Søren Kierkegaard' },
        facts: { count: 3 },
        audit: [
          { id: 'a3', seq: 150, hash: hash(3) },
          { id: 'a4', seq: 151, hash: hash(4) },
          { id: 'a5', seq: 152, hash: hash(5) },
        ],
      },
      {
        at: '2026-11-22T10:30:00.000Z',
        until: null,
        event: 'reviewed',
        by: { id: 'staff-soren', name: 'Søren Kierkegaard' },
        facts: { decision: 'same_person', previous: null },
        audit: [{ id: 'a6', seq: 160, hash: hash(6) }],
      },
      {
        at: '2026-11-23T08:00:00.000Z',
        until: null,
        event: 'assigned',
        by: { id: 'staff-zoe', name: null },
        facts: { assignee: { id: 'staff-soren', name: 'Søren Kierkegaard' }, previous: null },
        audit: [{ id: 'a7', seq: 170, hash: hash(7) }],
      },
    ],
    historyTruncated: false,
    // The entries the history names, as the chain holds them (their content is not printed).
    auditEntries: [
      [101, 'verification.created'],
      [140, 'verification.status_changed'],
      [150, 'verification.viewed'],
      [151, 'verification.viewed'],
      [152, 'verification.viewed'],
      [160, 'verification.reviewed'],
      [170, 'verification.assigned'],
    ].map(([seq, action], i) => ({
      seq: seq as number,
      id: `a${i + 1}`,
      at: '2026-11-22T10:00:00.000000Z',
      actorId: null,
      action: action as string,
      targetType: 'verification',
      targetId: '7f3c9a52-1d4e-4b8a-9c0f-2e5d6a7b8c9d',
      details: null,
      prev: hash(i),
      hash: hash(i + 1),
    })),
    checkpoint: { seq: 200, hash: hash(9), at: '2026-11-29T13:41:08.000000Z', keyFingerprint: CHECKPOINT_KEY, signature: 'c2lnbmF0dXJl' },
    publicKey: { fingerprint: PACK_KEY, pem: '-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n' },
    doesNotKeep: ['email_address', 'phone_number', 'document_images'],
    digests: {},
    signature: { keyFingerprint: PACK_KEY, value: 'c2lnbmF0dXJl' },
  };
}
