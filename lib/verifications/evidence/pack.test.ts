// A verification's evidence pack assembled from a real database (PGlite here, PostgreSQL in the
// postgres project) and a real HTTP stand-in for the service: the register's facts, the review
// and who made it, the history with the audit entries behind each line, signed so that the
// offline check passes; and made from the register alone once the service has purged the record.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordAudit } from '@/lib/audit/audit';
import { getAuditSigningKey } from '@/lib/audit/chain/signing-key.server';
import { verifyPack } from '@/lib/audit/chain/verify-pack';
import { runAuditCli } from '@/lib/audit/cli';
import { getDb } from '@/lib/db';
import { nameReviews } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { type FakeUpstream, json, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { resetAuditChain } from '@/test/support/audit-chain';
import { ADA, at, DAY, HOUR, insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { buildEvidencePack, evidencePackJson } from './pack.server';

const ID = '3b6f1c2e-8d4a-4f7e-9a1b-5c6d7e8f9a0b';
const OPTIONS = { language: 'fr' as const, timeZone: 'Europe/Brussels' };
const OTTO_STAFF = { id: OTTO, name: 'Otto Operator' };
// Before the audit entries the test writes now: the history starts with the creation.
const CREATED_AT = new Date(Date.now() - 60 * 60 * 1000);

let upstream: FakeUpstream;

/** The service's record of the request, completed by passport. */
const completedRecord = {
  inputted_name: 'Joëlle Straß',
  status: 'completed',
  purpose: 'legal_obligations',
  access_expires_at: '2030-06-22T11:00:00.000Z',
  identified_name: 'Joëlle Strass',
  identified_date: '2030-06-15T10:00:00.000Z',
  verification_method: 'passport',
  failed_reason: null,
  kept_until: '2031-06-15T10:00:00.000Z',
};

const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

/** The request's audit trail as the Desk writes it, one entry at a time (each its own instant). */
async function auditTrail() {
  const target = { type: 'verification' as const, id: ID };
  await recordAudit({ actorId: ADA, action: 'verification.created', target });
  await tick();
  await recordAudit({
    actorId: null,
    action: 'verification.status_changed',
    target,
    details: { status: 'completed', previous: 'pending' },
  });
  await tick();
  await recordAudit({ actorId: OTTO, action: 'verification.viewed', target });
  await tick();
  await recordAudit({ actorId: OTTO, action: 'verification.viewed', target });
  await tick();
  await recordAudit({ actorId: OTTO, action: 'verification.reviewed', target, details: { decision: 'same_person' } });
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  process.env.VERIFICATION_API_TIMEOUT_MS = '2000';
  resetEnv();
});

setUpRegisterDatabase();

beforeEach(async () => {
  await resetAuditChain(await getDb());
});

afterAll(async () => {
  await upstream.close();
});

describe('buildEvidencePack', () => {
  it('holds the request, its outcome, the review and its history with each audit entry, and verifies offline', async () => {
    await insert(
      row({
        verificationId: ID,
        name: 'Joëlle Straß',
        status: 'completed',
        identifiedName: 'Joëlle Strass',
        completedAt: new Date('2030-06-15T10:00:00.000Z'),
        method: 'passport',
        emailNotification: true,
        createdBy: ADA,
        createdAt: CREATED_AT,
      }),
    );
    await (await getDb()).insert(nameReviews).values({
      verificationId: ID,
      decision: 'same_person',
      note: 'Joëlle’s passport spells it with ss',
      decidedBy: OTTO,
      decidedAt: at(HOUR),
    });
    await auditTrail();
    upstream.program(json(200, completedRecord));

    const result = await buildEvidencePack(ID, OTTO_STAFF, OPTIONS);
    if (!result.ok) throw new Error(`refused: ${result.reason}`);
    const { pack } = result;
    expect(pack.verification).toEqual({
      id: ID,
      requestedName: 'Joëlle Straß',
      purpose: 'legal_obligations',
      personLanguage: 'en',
      channels: { shareableLink: true, email: true, sms: false },
      createdAt: CREATED_AT.toISOString(),
      createdBy: { id: ADA, name: 'Ada Admin' },
      status: 'completed',
      identifiedName: 'Joëlle Strass',
      identifiedAt: '2030-06-15T10:00:00.000Z',
      method: 'passport',
      failureReason: null,
      keptUntil: '2031-06-15T10:00:00.000Z',
      nameReview: { decision: 'same_person', decidedAt: at(HOUR).toISOString(), decidedBy: { id: OTTO, name: 'Otto Operator' } },
      serviceRecord: 'read',
    });
    expect(pack).toMatchObject({ language: 'fr', timeZone: 'Europe/Brussels', generatedBy: OTTO_STAFF });
    // The review's note may name people: it stays on the Desk.
    expect(JSON.stringify(pack)).not.toContain('passport spells');
    expect(pack.doesNotKeep).toEqual(['email_address', 'phone_number', 'document_images']);

    // Every audit entry of the request, and each history line pointing at its own.
    expect(pack.auditEntries.map((entry) => entry.action)).toEqual([
      'verification.created',
      'verification.status_changed',
      'verification.viewed',
      'verification.viewed',
      'verification.reviewed',
    ]);
    const bySeq = new Map(pack.auditEntries.map((entry) => [entry.seq, entry]));
    const lines = pack.history.map((line) => ({ event: line.event, actions: line.audit.map((ref) => bySeq.get(ref.seq)?.action) }));
    expect(lines).toEqual([
      { event: 'created', actions: ['verification.created'] },
      { event: 'status_changed', actions: ['verification.status_changed'] },
      // Two views by one person a moment apart are one line, standing for both entries.
      { event: 'viewed', actions: ['verification.viewed', 'verification.viewed'] },
      { event: 'reviewed', actions: ['verification.reviewed'] },
    ]);
    for (const line of pack.history) for (const ref of line.audit) expect(bySeq.get(ref.seq)).toMatchObject({ id: ref.id, hash: ref.hash });
    expect(pack.checkpoint.seq).toBeGreaterThanOrEqual(Math.max(...pack.auditEntries.map((entry) => entry.seq)));

    // The downloaded file verifies with the Desk's public key alone, and a changed byte does not.
    const { publicKeyPem, fingerprint } = await getAuditSigningKey();
    expect(pack.signature.keyFingerprint).toBe(fingerprint);
    const file = evidencePackJson(pack);
    expect(verifyPack(JSON.parse(file), [publicKeyPem])).toMatchObject({ ok: true, verificationId: ID, entries: 5 });
    expect(
      verifyPack(JSON.parse(file.replace('"identifiedName": "Joëlle Strass"', '"identifiedName": "Joëlle Straß"')), [publicKeyPem]),
    ).toEqual({
      ok: false,
      reason: 'verification.identifiedName: changed after the pack was signed',
    });
    // The last "decision" of the file is the audit entry's own (after the review and the history).
    const last = file.lastIndexOf('"decision": "same_person"');
    const entryChanged = `${file.slice(0, last)}"decision": "different_person"${file.slice(last + '"decision": "same_person"'.length)}`;
    expect(verifyPack(JSON.parse(entryChanged), [publicKeyPem])).toEqual({
      ok: false,
      reason: expect.stringMatching(/^auditEntries\[4\] \(seq \d+, id [\w-]+\): its content does not match its hash, so it was changed$/),
    });
  });

  it('is made from the register once the service has purged the record, and says so; its own downloads stay out of it', async () => {
    await insert(
      row({
        verificationId: ID,
        name: 'Søren Dvořák',
        status: 'failed',
        failureReason: 'document_expired',
        keptUntil: at(-DAY),
        createdBy: OTTO,
      }),
    );
    await recordAudit({ actorId: OTTO, action: 'verification.created', target: { type: 'verification', id: ID } });
    upstream.program(json(404, { error: 'Verification not found' }));
    const result = await buildEvidencePack(ID, OTTO_STAFF, OPTIONS);
    if (!result.ok) throw new Error(`refused: ${result.reason}`);
    expect(result.pack.verification).toMatchObject({
      requestedName: 'Søren Dvořák',
      status: 'failed',
      failureReason: 'document_expired',
      serviceRecord: 'purged',
      nameReview: null,
    });
    const { publicKeyPem } = await getAuditSigningKey();
    expect(verifyPack(JSON.parse(evidencePackJson(result.pack)), [publicKeyPem]).ok).toBe(true);

    // A download of the pack is audited, but is not part of the next pack: the PDF and the JSON
    // taken one after the other tell the same history over the same entries.
    await recordAudit({
      actorId: OTTO,
      action: 'evidence.downloaded',
      target: { type: 'verification', id: ID },
      details: { format: 'pdf' },
    });
    upstream.program(json(404, { error: 'Verification not found' }));
    const again = await buildEvidencePack(ID, OTTO_STAFF, OPTIONS);
    if (!again.ok) throw new Error(`refused: ${again.reason}`);
    expect(again.pack.auditEntries).toEqual(result.pack.auditEntries);
    expect(again.pack.history).toEqual(result.pack.history);
  });

  it('is checked offline by `npm run audit -- verify-pack` with the public key alone', async () => {
    await insert(row({ verificationId: ID, name: 'Dvořák Joëlle', status: 'expired', createdBy: ADA }));
    await recordAudit({ actorId: ADA, action: 'verification.created', target: { type: 'verification', id: ID } });
    upstream.program(
      json(200, { ...completedRecord, status: 'expired', identified_name: null, identified_date: null, verification_method: null }),
    );
    const result = await buildEvidencePack(ID, OTTO_STAFF, OPTIONS);
    if (!result.ok) throw new Error(`refused: ${result.reason}`);
    const dir = await mkdtemp(path.join(tmpdir(), 'evidence-pack-'));
    try {
      const packFile = path.join(dir, 'pack.json');
      const keyFile = path.join(dir, 'public-key.pem');
      await writeFile(keyFile, (await getAuditSigningKey()).publicKeyPem);
      const audit = async (text: string) => {
        await writeFile(packFile, text);
        const lines: string[] = [];
        const code = await runAuditCli(['verify-pack', packFile, '--public-key', keyFile], {
          out: (l) => lines.push(l),
          err: (l) => lines.push(l),
        });
        return { code, output: lines.join('\n') };
      };
      const file = evidencePackJson(result.pack);
      const intact = await audit(file);
      expect(intact).toEqual({
        code: 0,
        output: expect.stringMatching(new RegExp(`^Pack intact: verification ${ID}, 1 audit entry, covered by checkpoint \\d+`)),
      });
      expect(await audit(file.replace('"requestedName": "Dvořák Joëlle"', '"requestedName": "Dvorak Joelle"'))).toEqual({
        code: 1,
        output: 'Pack NOT intact: verification.requestedName: changed after the pack was signed',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a request still pending, and one this Desk never created without asking the service', async () => {
    await insert(row({ verificationId: ID, status: 'pending' }));
    upstream.program(
      json(200, { ...completedRecord, status: 'pending', identified_name: null, identified_date: null, verification_method: null }),
    );
    expect(await buildEvidencePack(ID, OTTO_STAFF, OPTIONS)).toEqual({ ok: false, reason: 'not_finished', status: 'pending' });

    const asked = upstream.requests.length;
    expect(await buildEvidencePack('0b0e5a4c-0000-4000-8000-000000000000', OTTO_STAFF, OPTIONS)).toEqual({
      ok: false,
      reason: 'not_in_register',
    });
    expect(upstream.requests.length).toBe(asked);
  });
});
