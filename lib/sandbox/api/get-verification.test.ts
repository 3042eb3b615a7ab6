// GET /v1/verifications/{id} (and the id-less forms) against the real route handlers: the
// record of contract §2.3, the status codes of §4.2 and §7, and the retention arithmetic of §8.
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getById } from '@/app/(sandbox)/v1/verifications/[id]/route';
import { GET as getNew, POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { GET as getWithoutId } from '@/app/(sandbox)/v1/verifications/route';
import { closeDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import { verifications, webhookMessages } from '@/lib/sandbox/schema';
import {
  API,
  createRequest,
  createTestCompany,
  expectError,
  getRequest,
  idParams,
  type TestCompany,
  useInMemorySandbox,
  validBody,
} from '@/test/support/sandbox';

let db: SandboxDb;
let company: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  db = await useInMemorySandbox();
  company = await createTestCompany(db, { name: 'Acme' });
  other = await createTestCompany(db, { name: 'Other Corp' });
});

afterAll(async () => {
  await closeDatabases();
});

afterEach(() => {
  vi.useRealTimers();
});

async function storedStatus(id: string): Promise<string | undefined> {
  const [row] = await db.select({ status: verifications.status }).from(verifications).where(eq(verifications.id, id));
  return row?.status;
}

async function eventTypes(verificationId: string): Promise<string[]> {
  const rows = await db
    .select({ type: webhookMessages.type })
    .from(webhookMessages)
    .where(sql`${webhookMessages.payload} -> 'data' ->> 'verificationId' = ${verificationId}`)
    .orderBy(asc(webhookMessages.createdAt));
  return rows.map((row) => row.type);
}

async function create(owner: TestCompany, body: Record<string, unknown> = validBody()): Promise<string> {
  const response = await POST(createRequest(body, { apiKey: owner.apiKey }), undefined);
  expect(response.status).toBe(200);
  return ((await response.json()) as { verificationId: string }).verificationId;
}

/** `null` sends no Authorization header. */
const read = (id: string, apiKey: string | null = company.apiKey) => getById(getRequest(`${API}/${id}`, apiKey ?? undefined), idParams(id));

const RECORD_KEYS = [
  'inputted_name',
  'status',
  'purpose',
  'access_expires_at',
  'identified_name',
  'identified_date',
  'verification_method',
  'failed_reason',
  'kept_until',
];

const DAY_MS = 24 * 60 * 60 * 1000;

describe('the record (contract §2.3)', () => {
  it('has the nine fields in order, with nulls while pending', async () => {
    const now = new Date('2026-03-01T10:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    const id = await create(company, validBody({ name: 'Jane Doe', chosenPurpose: 'processing_gdpr_request' }));
    const response = await read(id);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    const record = await response.json();
    expect(Object.keys(record)).toEqual(RECORD_KEYS);
    expect(record).toEqual({
      inputted_name: 'Jane Doe',
      status: 'pending',
      purpose: 'processing_gdpr_request',
      // Company defaults: 7 days of access, 30 days of retention.
      access_expires_at: new Date(now.getTime() + 7 * DAY_MS).toISOString(),
      identified_name: null,
      identified_date: null,
      verification_method: null,
      failed_reason: null,
      kept_until: new Date(now.getTime() + 30 * DAY_MS).toISOString(),
    });
  });

  it('follows the company settings for access and retention', async () => {
    const custom = await createTestCompany(db, { tokenValiditySeconds: 3_600, verificationRetentionSeconds: 86_400 * 2 + 5 });
    const now = new Date('2026-05-10T23:30:15.250Z');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(now);
    const id = await create(custom);
    const record = await (await read(id, custom.apiKey)).json();
    expect(record.access_expires_at).toBe('2026-05-11T00:30:15.250Z');
    expect(record.kept_until).toBe('2026-05-12T23:30:20.250Z');
  });

  it('uses ISO 8601 timestamps (UTC, milliseconds)', async () => {
    const record = await (await read(await create(company))).json();
    for (const field of ['access_expires_at', 'kept_until']) {
      expect(record[field]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
  });

  it('shows a completed verification with its identified name, date and method', async () => {
    const id = await create(company);
    const identifiedDate = new Date('2026-04-02T08:15:00.000Z');
    await db
      .update(verifications)
      .set({ status: 'completed', identifiedName: 'JANE MARIE DOE', identifiedDate, verificationMethod: 'passport' })
      .where(eq(verifications.id, id));
    const record = await (await read(id)).json();
    expect(Object.keys(record)).toEqual(RECORD_KEYS);
    expect(record).toMatchObject({
      status: 'completed',
      identified_name: 'JANE MARIE DOE',
      identified_date: '2026-04-02T08:15:00.000Z',
      verification_method: 'passport',
      failed_reason: null,
    });
  });

  it('shows a failed verification with its reason', async () => {
    const id = await create(company);
    await db
      .update(verifications)
      .set({ status: 'failed', verificationMethod: 'id_card', failedReason: 'Document expired' })
      .where(eq(verifications.id, id));
    expect(await (await read(id)).json()).toMatchObject({
      status: 'failed',
      identified_name: null,
      identified_date: null,
      verification_method: 'id_card',
      failed_reason: 'Document expired',
    });
  });

  it('reports a pending request as expired once its access has expired, by expiring it', async () => {
    const shortLived = await createTestCompany(db, { tokenValiditySeconds: 60, verificationRetentionSeconds: 3_600 });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:00.000Z'));
    const id = await create(shortLived);
    vi.setSystemTime(new Date('2026-06-01T12:00:59.999Z'));
    expect((await (await read(id, shortLived.apiKey)).json()).status).toBe('pending');
    vi.setSystemTime(new Date('2026-06-01T12:01:00.000Z'));
    const record = await (await read(id, shortLived.apiKey)).json();
    expect(record).toMatchObject({
      status: 'expired',
      identified_name: null,
      verification_method: null,
      failed_reason: null,
      // Retention counts from the expiry.
      kept_until: '2026-06-01T13:01:00.000Z',
    });
    // The read changed the stored state and emitted the event, once, however often it is read.
    expect(await storedStatus(id)).toBe('expired');
    await read(id, shortLived.apiKey);
    expect(await eventTypes(id)).toEqual(['verification.created', 'verification.expired']);
  });

  it('answers 404 once the record is past kept_until (purged for the caller)', async () => {
    const brief = await createTestCompany(db, { tokenValiditySeconds: 600, verificationRetentionSeconds: 120 });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:00.000Z'));
    const id = await create(brief);
    vi.setSystemTime(new Date('2026-06-01T12:01:59.000Z'));
    expect((await read(id, brief.apiKey)).status).toBe(200);
    vi.setSystemTime(new Date('2026-06-01T12:02:00.000Z'));
    await expectError(await read(id, brief.apiKey), 404, 'Verification not found');
    // Retention shorter than the link's validity: gone before it could expire, and its expiry
    // does not bring it back.
    vi.setSystemTime(new Date('2026-06-01T12:10:00.000Z'));
    await expectError(await read(id, brief.apiKey), 404, 'Verification not found');
    expect(await storedStatus(id)).toBe('pending');
  });

  it('answers 404 past the kept_until that the expiry set', async () => {
    const brief = await createTestCompany(db, { tokenValiditySeconds: 60, verificationRetentionSeconds: 120 });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:00.000Z'));
    const id = await create(brief);
    // Read for the first time after the pending kept_until (12:02): the expiry at 12:01 came
    // first and kept the record until 12:03, whenever it is noticed.
    vi.setSystemTime(new Date('2026-06-01T12:02:30.000Z'));
    expect(await (await read(id, brief.apiKey)).json()).toMatchObject({ status: 'expired', kept_until: '2026-06-01T12:03:00.000Z' });
    vi.setSystemTime(new Date('2026-06-01T12:03:00.000Z'));
    await expectError(await read(id, brief.apiKey), 404, 'Verification not found');
  });
});

describe('status codes (contract §4.2, §7)', () => {
  it('404 with exactly {"error":"Verification not found"} for an unknown id', async () => {
    const response = await read('3f2b8c1e-9d4a-4b7e-8f00-123456789abc');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('{"error":"Verification not found"}');
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
  });

  it("403 for another company's record, with no record field in the body", async () => {
    const id = await create(other, validBody({ name: 'Secret Person', chosenPurpose: 'secret purpose' }));
    const response = await read(id, company.apiKey);
    const text = await response.clone().text();
    await expectError(response, 403, 'This verification belongs to another company');
    for (const leaked of [...RECORD_KEYS, 'Secret Person', 'secret purpose', 'pending']) {
      expect(text).not.toContain(leaked);
    }
    // The owner still reads it.
    expect((await read(id, other.apiKey)).status).toBe(200);
  });

  it.each([
    'abc',
    '123',
    'not-a-uuid',
    '3f2b8c1e9d4a4b7e8f00123456789abc',
    '3f2b8c1e-9d4a-4b7e-8f00-123456789abcd',
    '3f2b8c1e-9d4a-4b7e-8f00-123456789ab',
    '{3f2b8c1e-9d4a-4b7e-8f00-123456789abc}',
    'zzzzzzzz-9d4a-4b7e-8f00-123456789abc',
    " ' OR '1'='1",
    '%00',
  ])('400 for the malformed id %j', async (id) => {
    await expectError(await read(id), 400, 'Verification id is invalid: expected a UUID');
  });

  it('reads an id written in capitals', async () => {
    const id = await create(company);
    expect((await read(id.toUpperCase())).status).toBe(200);
  });

  it.each([`${API}`, `${API}/`])('400 missing id for GET %s', async (url) => {
    await expectError(
      await getWithoutId(getRequest(url, company.apiKey), undefined),
      400,
      'Verification id is missing: use GET /v1/verifications/{id}',
    );
  });

  it('GET /v1/verifications/new reads the id "new": 400', async () => {
    await expectError(
      await getNew(getRequest(`${API}/new`, company.apiKey), undefined),
      400,
      'Verification id is invalid: expected a UUID',
    );
  });
});

describe('authentication comes first', () => {
  it.each([
    ['a malformed id', 'abc'],
    ['an unknown id', '3f2b8c1e-9d4a-4b7e-8f00-123456789abc'],
  ])('403 before looking at %s', async (_case, id) => {
    await expectError(await read(id, null), 403, /API key/);
    await expectError(await read(id, 'vd_sk_not-a-real-key'), 403, 'Invalid API key');
  });

  it('403 before reporting a missing id', async () => {
    await expectError(await getWithoutId(getRequest(`${API}/`), undefined), 403, /API key/);
  });

  it("403 for another company's record without a valid key of its own", async () => {
    const id = await create(company);
    await expectError(await read(id, null), 403, /API key/);
  });
});

describe('sandbox switched off', () => {
  afterEach(() => {
    process.env.SANDBOX = 'on';
  });

  it('every read route answers 404 Not found', async () => {
    const id = await create(company);
    process.env.SANDBOX = 'off';
    await expectError(await read(id), 404, 'Not found');
    await expectError(await getWithoutId(getRequest(`${API}/`, company.apiKey), undefined), 404, 'Not found');
    await expectError(await getNew(getRequest(`${API}/new`, company.apiKey), undefined), 404, 'Not found');
  });
});
