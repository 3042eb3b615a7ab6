// readVerification, the one read every reader goes through: the record, the register brought up
// to date when the caller asks, and a failure described once (words, kind, HTTP status, whether
// to try again). A real HTTP upstream and a real database (PGlite, and PostgreSQL in the
// postgres project).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { type FakeUpstream, json, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { getRegisterEntry } from '@/lib/verifications/register/queries.server';
import { insert, row, setUpRegisterDatabase } from '@/test/support/register';
import { readVerification } from './read-verification.server';

let upstream: FakeUpstream;

const record = (status: string) => ({
  inputted_name: 'Élodie Martin',
  status,
  purpose: 'legal_obligations',
  access_expires_at: '2030-01-08T00:00:00.000Z',
  identified_name: null,
  identified_date: null,
  verification_method: null,
  failed_reason: null,
  kept_until: '2099-02-01T00:00:00.000Z',
});

beforeAll(async () => {
  upstream = await startFakeUpstream();
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  process.env.VERIFICATION_API_TIMEOUT_MS = '2000';
  resetEnv();
});

setUpRegisterDatabase();

afterAll(async () => {
  await upstream.close();
});

describe('readVerification', () => {
  it("with 'now', brings the register up to date before it returns, and says the status it holds", async () => {
    await insert(row({ verificationId: 'v-now', status: 'pending' }));
    upstream.program(json(200, record('expired')));
    const read = await readVerification('v-now', { refresh: 'now' });
    expect(read.ok && read.record.status).toBe('expired');
    expect(read.ok && read.registered).toBe('expired');
    expect((await getRegisterEntry('v-now'))?.status).toBe('expired');
  });

  it("with 'by-caller', leaves the register alone until the caller refreshes it, inside its own transaction", async () => {
    await insert(row({ verificationId: 'v-caller', status: 'pending' }));
    upstream.program(json(200, record('failed')));
    const read = await readVerification('v-caller', { refresh: 'by-caller' });
    if (!read.ok) throw new Error('the read failed');
    expect((await getRegisterEntry('v-caller'))?.status).toBe('pending');
    const db = await getDb();
    expect(await db.transaction((tx) => read.refreshRegister(tx))).toBe('failed');
  });

  it('describes a failure once: the words, the kind, the status a route answers and whether to try again', async () => {
    upstream.program(json(404, { error: 'Verification not found' }));
    const missing = await readVerification('v-missing');
    expect(missing.ok).toBe(false);
    if (missing.ok) return;
    expect(missing.failure).toMatchObject({ kind: 'not_found', httpStatus: 404, transient: false });
    expect(missing.failure.message).not.toBe('');

    upstream.program(json(503, { error: 'down' }));
    const down = await readVerification('v-down');
    expect(!down.ok && down.failure).toMatchObject({ kind: 'unavailable', httpStatus: 503, transient: true });
  });
});
