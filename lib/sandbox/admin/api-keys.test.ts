// API keys (contract §5): how they are made and stored, and how every route refuses a request
// without a valid one. On a PostgreSQL server a second pool plays another instance: a key it
// revokes stops working here at once.
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getById } from '@/app/(sandbox)/v1/verifications/[id]/route';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { closeDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import * as sandboxSchema from '@/lib/sandbox/schema';
import { apiKeys } from '@/lib/sandbox/schema';
import { hashSecret } from '@/lib/sandbox/secrets';
import {
  API,
  createRequest,
  createTestCompany,
  expectError,
  getRequest,
  idParams,
  useInMemorySandbox,
  validBody,
} from '@/test/support/sandbox';
import { API_KEY_CACHE_TTL_MS, authenticateApiKey, forgetAuthenticatedApiKeys, issueApiKey, revokeApiKey } from './api-keys';
import { createCompany } from './companies';

/** A server's instances share it with others: they keep no cache of keys (see api-keys.ts). */
const onServer = Boolean(process.env.DATABASE_URL);

let db: SandboxDb;

beforeAll(async () => {
  db = await useInMemorySandbox();
});

afterAll(async () => {
  await closeDatabases();
});

const createWith = (authorization: string | undefined) =>
  POST(createRequest(validBody(), { headers: authorization === undefined ? {} : { Authorization: authorization } }), undefined);

describe('issuing keys', () => {
  it('makes a vd_sk_ key with 256 random bits and stores only its SHA-256', async () => {
    const company = await createCompany(db, { name: 'Keys Inc' });
    const { apiKey, keyId } = await issueApiKey(db, { companyId: company.id, label: 'test' });
    expect(apiKey).toMatch(/^vd_sk_[A-Za-z0-9_-]{43}$/);
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row!.keyHash).toBe(hashSecret(apiKey));
    expect(row!.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.prefix).toBe(apiKey.slice(0, 12));
    expect(JSON.stringify(row)).not.toContain(apiKey.slice(12));
  });

  it('never issues the same key twice', async () => {
    const company = await createCompany(db, { name: 'Many keys' });
    const keys = await Promise.all(Array.from({ length: 20 }, () => issueApiKey(db, { companyId: company.id, label: 'x' })));
    expect(new Set(keys.map((k) => k.apiKey)).size).toBe(20);
  });
});

describe('403 without a valid key (contract §5)', () => {
  let valid: string;
  beforeAll(async () => {
    valid = (await createTestCompany(db)).apiKey;
  });

  it.each([
    ['no Authorization header', undefined, 'Missing API key: send the header Authorization: Bearer <API_KEY>'],
    ['an empty header', '', 'Missing API key: send the header Authorization: Bearer <API_KEY>'],
    ['Bearer without a key', 'Bearer', 'Invalid Authorization header: expected Authorization: Bearer <API_KEY>'],
    ['Bearer and a space', 'Bearer ', 'Invalid Authorization header: expected Authorization: Bearer <API_KEY>'],
    ['the key without a scheme', 'KEY', 'Invalid Authorization header: expected Authorization: Bearer <API_KEY>'],
    ['Basic credentials', 'Basic dXNlcjpwYXNz', 'Invalid Authorization header: expected Authorization: Bearer <API_KEY>'],
    ['Token scheme', 'Token KEY', 'Invalid Authorization header: expected Authorization: Bearer <API_KEY>'],
    ['two keys', 'Bearer KEY KEY', 'Invalid Authorization header: expected Authorization: Bearer <API_KEY>'],
    ['an unknown well-formed key', `Bearer vd_sk_${'A'.repeat(43)}`, 'Invalid API key'],
    ['a key of the wrong shape', 'Bearer sk_live_123', 'Invalid API key'],
    ['the key in other letter case', 'Bearer UPPER', 'Invalid API key'],
    ['the key with a character missing', 'Bearer SHORT', 'Invalid API key'],
    ['the key with a character added', 'Bearer LONG', 'Invalid API key'],
    ['the hash of the key instead of the key', 'Bearer HASH', 'Invalid API key'],
  ])('%s', async (_case, header, message) => {
    const authorization = header
      ?.replace('KEY', valid)
      .replace('UPPER', valid.slice(0, 6) + valid.slice(6).toUpperCase())
      .replace('SHORT', valid.slice(0, -1))
      .replace('LONG', `${valid}A`)
      .replace('HASH', hashSecret(valid));
    await expectError(await createWith(authorization), 403, message);
    await expectError(
      await getById(
        getRequest(
          `${API}/3f2b8c1e-9d4a-4b7e-8f00-123456789abc`,
          undefined,
          authorization === undefined ? {} : { Authorization: authorization },
        ),
        idParams('3f2b8c1e-9d4a-4b7e-8f00-123456789abc'),
      ),
      403,
      message,
    );
  });

  it('accepts the scheme name in any letter case (RFC 9110 §11.1), the key itself only exactly', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await createWith(`${scheme} ${valid}`)).status, scheme).toBe(200);
    }
  });

  it('refuses a revoked key, and keeps accepting the other keys of the company', async () => {
    const company = await createCompany(db, { name: 'Revoking Inc' });
    const revoked = await issueApiKey(db, { companyId: company.id, label: 'old' });
    const kept = await issueApiKey(db, { companyId: company.id, label: 'new' });
    expect((await createWith(`Bearer ${revoked.apiKey}`)).status).toBe(200);
    await revokeApiKey(db, revoked.keyId);
    await expectError(await createWith(`Bearer ${revoked.apiKey}`), 403, 'This API key has been revoked');
    expect((await createWith(`Bearer ${kept.apiKey}`)).status).toBe(200);
  });
});

describe('authenticateApiKey', () => {
  it("names the key's company", async () => {
    const company = await createCompany(db, { name: 'Who am I' });
    const { apiKey, keyId } = await issueApiKey(db, { companyId: company.id, label: 'x' });
    expect(await authenticateApiKey(db, `Bearer ${apiKey}`)).toEqual({ ok: true, companyId: company.id, keyId });
  });
});

describe('the cache of recently authenticated keys', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it.skipIf(onServer)('authenticates a busy key from memory, and asks the database again after the TTL', async () => {
    const company = await createCompany(db, { name: 'Busy key' });
    const { apiKey, keyId } = await issueApiKey(db, { companyId: company.id, label: 'x' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const select = vi.spyOn(db, 'select');
    for (let i = 0; i < 5; i++)
      expect(await authenticateApiKey(db, `Bearer ${apiKey}`)).toEqual({ ok: true, companyId: company.id, keyId });
    expect(select).toHaveBeenCalledTimes(1);

    // A change the process was not told about (nothing makes one while the data directory is locked
    // to this process) still takes effect within the TTL.
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId));
    vi.setSystemTime(new Date(Date.now() + API_KEY_CACHE_TTL_MS + 1));
    expect(await authenticateApiKey(db, `Bearer ${apiKey}`)).toEqual({ ok: false, error: 'This API key has been revoked' });
  });

  it('never keeps a failure: a wrong or revoked key is looked up every time', async () => {
    const select = vi.spyOn(db, 'select');
    await authenticateApiKey(db, `Bearer vd_sk_${'a'.repeat(43)}`);
    await authenticateApiKey(db, `Bearer vd_sk_${'a'.repeat(43)}`);
    expect(select.mock.calls.length).toBe(2);
  });

  it('a lookup that was running when a key was revoked does not put the key back in the cache', async () => {
    const company = await createCompany(db, { name: 'Racing' });
    const { apiKey } = await issueApiKey(db, { companyId: company.id, label: 'x' });
    const running = authenticateApiKey(db, `Bearer ${apiKey}`);
    forgetAuthenticatedApiKeys(); // what revokeApiKey does once its UPDATE is through
    expect((await running).ok).toBe(true); // it read the row before the revocation
    const select = vi.spyOn(db, 'select');
    await authenticateApiKey(db, `Bearer ${apiKey}`);
    expect(select).toHaveBeenCalledTimes(1);
  });

  it('revoking a key (even one used a moment ago) refuses it on the very next request', async () => {
    const company = await createCompany(db, { name: 'Revoked while cached' });
    const { apiKey, keyId } = await issueApiKey(db, { companyId: company.id, label: 'x' });
    expect((await authenticateApiKey(db, `Bearer ${apiKey}`)).ok).toBe(true);
    expect((await authenticateApiKey(db, `Bearer ${apiKey}`)).ok).toBe(true);
    await revokeApiKey(db, keyId);
    expect(await authenticateApiKey(db, `Bearer ${apiKey}`)).toEqual({ ok: false, error: 'This API key has been revoked' });
  });
});

describe.skipIf(!onServer)('several instances on one PostgreSQL server', () => {
  let otherPool: pg.Pool;
  /** Another instance of the sandbox (or the sandbox CLI): its own pool on the same database. */
  let other: SandboxDb;

  beforeAll(() => {
    otherPool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    other = drizzle({ client: otherPool, schema: sandboxSchema });
  });

  afterAll(async () => {
    await otherPool.end();
  });

  it('refuses a key here on the very next request once another instance has revoked it, though it was used here a moment ago', async () => {
    const company = await createCompany(db, { name: 'Revoked elsewhere' });
    const { apiKey, keyId } = await issueApiKey(db, { companyId: company.id, label: 'x' });
    expect((await createWith(`Bearer ${apiKey}`)).status).toBe(200);
    expect((await createWith(`Bearer ${apiKey}`)).status).toBe(200);
    // What revokeApiKey writes, from another process: its forgetAuthenticatedApiKeys() empties
    // that process's memory, never this one's.
    await other.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId));
    await expectError(await createWith(`Bearer ${apiKey}`), 403, 'This API key has been revoked');
  });
});
