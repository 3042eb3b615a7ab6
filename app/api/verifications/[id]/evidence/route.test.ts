// The evidence pack's download end to end: real better-auth sessions, the real route handler
// called with a Request, the register and the audit trail on a real database (PGlite, and
// PostgreSQL in the postgres project), a real HTTP stand-in for the service. Refusals say why;
// a download is a file no cache keeps, and the audit trail records it with its format only.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getAuditSigningKey } from '@/lib/audit/chain/signing-key.server';
import { verifyPack } from '@/lib/audit/chain/verify-pack';
import { getDb } from '@/lib/db';
import { auditEntries, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { createStaff } from '@/lib/staff/staff-accounts';
import { type FakeUpstream, json, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { answerInLanguage } from '@/test/support/next-intl-server';
import { sessionCookie } from '@/test/support/session-cookie';
import { GET } from './route';

const PASSWORD = 'correct horse battery staple';
const ID = '5d2c7e1a-3b4f-4a6e-8c9d-0e1f2a3b4c5d';
const PENDING_ID = '5d2c7e1a-3b4f-4a6e-8c9d-0e1f2a3b4c5e';
let vicId: string;
let vic: string;
let newcomer: string;
let upstream: FakeUpstream;

function download(query: string, cookie?: string, id = ID) {
  const headers = cookie ? { cookie } : undefined;
  return GET(new Request(`http://localhost:3000/api/verifications/${id}/evidence${query}`, { headers }), {
    params: Promise.resolve({ id }),
  });
}

async function downloadsAudited() {
  const db = await getDb();
  return db
    .select({ actorId: auditEntries.actorId, targetId: auditEntries.targetId, details: auditEntries.details })
    .from(auditEntries)
    .where(and(eq(auditEntries.action, 'evidence.downloaded')));
}

const record = (status: string) => ({
  inputted_name: 'Zoë Ødegård',
  status,
  purpose: 'ensuring_compliance',
  access_expires_at: '2030-06-22T11:00:00.000Z',
  identified_name: status === 'completed' ? 'Zoë Ødegård' : null,
  identified_date: status === 'completed' ? '2030-06-15T10:00:00.000Z' : null,
  verification_method: status === 'completed' ? 'id_card' : null,
  failed_reason: null,
  kept_until: '2031-06-15T10:00:00.000Z',
});

// Accounts and sign-ins hash passwords (scrypt): slow on a busy machine, hence the hook's budget.
beforeAll(async () => {
  upstream = await startFakeUpstream();
  process.env.DATA_DIR = 'memory://';
  process.env.APP_URL = 'http://localhost:3000';
  process.env.BETTER_AUTH_SECRET = 'test-secret-for-the-evidence-route-0123456789';
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  process.env.VERIFICATION_API_TIMEOUT_MS = '2000';
  resetEnv();
  const adaId = await createStaff(null, { name: 'Ada Admin', email: 'ada@example.com', role: 'admin', password: PASSWORD });
  vicId = await createStaff(adaId, { name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', password: PASSWORD });
  await createStaff(adaId, { name: 'Nina Newcomer', email: 'nina@example.com', role: 'operator', password: PASSWORD });
  [vic, newcomer] = [await sessionCookie('vic@example.com', PASSWORD), await sessionCookie('nina@example.com', PASSWORD)];
  await (await getDb()).insert(verificationRequests).values(
    [ID, PENDING_ID].map((verificationId) => ({
      verificationId,
      name: 'Zoë Ødegård',
      purpose: 'ensuring_compliance',
      language: 'nl',
      shareableLink: true,
      emailNotification: false,
      smsNotification: true,
      status: verificationId === ID ? 'completed' : 'pending',
      identifiedName: verificationId === ID ? 'Zoë Ødegård' : null,
      createdBy: adaId,
    })),
  );
}, 120_000);

beforeEach(async () => {
  await (await getDb()).delete(auditEntries).where(eq(auditEntries.action, 'evidence.downloaded'));
});

afterAll(async () => {
  answerInLanguage('en');
  delete process.env.REQUIRE_2FA;
  resetEnv();
  await upstream.close();
  await closeDatabases();
});

describe('GET /api/verifications/[id]/evidence', () => {
  it('gives the PDF as a file no cache keeps, named from the id, and audits the download with its format only', async () => {
    upstream.program(json(200, record('completed')));
    const response = await download('?format=pdf', vic);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="evidence-pack-${ID}.pdf"`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 8))).toBe('%PDF-1.7');
    expect(await downloadsAudited()).toEqual([{ actorId: vicId, targetId: ID, details: { format: 'pdf' } }]);
  });

  it('gives the signed JSON, which verifies offline with the Desk’s public key', async () => {
    upstream.program(json(200, record('completed')));
    const response = await download('?format=json', vic);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="evidence-pack-${ID}.json"`);
    const pack = JSON.parse(await response.text());
    expect(pack.verification).toMatchObject({ id: ID, requestedName: 'Zoë Ødegård', status: 'completed', method: 'id_card' });
    expect(pack.generatedBy).toEqual({ id: vicId, name: 'Vic Viewer' });
    const { publicKeyPem } = await getAuditSigningKey();
    expect(verifyPack(pack, [publicKeyPem])).toMatchObject({ ok: true, verificationId: ID });
    expect(await downloadsAudited()).toEqual([{ actorId: vicId, targetId: ID, details: { format: 'json' } }]);
  });

  it('answers 400 naming a format it does not make, in the reader’s language, and audits nothing', async () => {
    const response = await download('?format=docx', vic);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'Unknown format “docx”: ask for pdf or json.' });
    answerInLanguage('fr');
    try {
      expect(await (await download('?format=xml', vic)).json()).toEqual({
        error: 'Format inconnu «\u00a0xml\u00a0»\u00a0: demandez pdf ou json.',
      });
    } finally {
      answerInLanguage('en');
    }
    expect(await downloadsAudited()).toEqual([]);
  });

  it('refuses a request that is not finished (409) or not in the register (404), saying why', async () => {
    upstream.program(json(200, record('pending')));
    const pending = await download('?format=pdf', vic, PENDING_ID);
    expect(pending.status).toBe(409);
    expect(await pending.json()).toEqual({
      error: `Verification ${PENDING_ID} has the status “Pending”: an evidence pack is made once a request is completed, failed or expired.`,
    });
    const unknown = await download('?format=pdf', vic, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(await downloadsAudited()).toEqual([]);
  });

  it('refuses anyone who may not read the record: no session, or an account that must first set up two-factor', async () => {
    const anonymous = await download('?format=pdf');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('cache-control')).toBe('no-store');
    process.env.REQUIRE_2FA = 'on';
    resetEnv();
    try {
      // Nina's session is validated here for the first time, with the requirement on.
      expect((await download('?format=json', newcomer)).status).toBe(403);
    } finally {
      delete process.env.REQUIRE_2FA;
      resetEnv();
    }
    expect(await downloadsAudited()).toEqual([]);
  });
});
