// The per-API-key rate limit, through the real route handlers on an in-memory database, with
// only Date faked so that the window can pass without waiting.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET } from '@/app/(sandbox)/v1/verifications/[id]/route';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { closeDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import { apiAuditLog } from '@/lib/sandbox/schema';
import { captureLogs } from '@/test/support/logs';
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
import { flushApiAuditLog } from './api-audit';
import { takeSandboxRequest } from './rate-limit';

let db: SandboxDb;
let company: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  db = await useInMemorySandbox();
  process.env.SANDBOX_RATE_LIMIT_PER_MINUTE = '3';
  company = await createTestCompany(db);
  other = await createTestCompany(db, { name: 'Other company' });
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  delete process.env.SANDBOX_RATE_LIMIT_PER_MINUTE;
  await closeDatabases();
});

const post = (apiKey: string) => POST(createRequest(validBody(), { apiKey }), undefined);

describe('sandbox rate limit per API key', () => {
  it('answers the 4th request in a minute with 429, Retry-After and the contract error shape; other keys go on; after the window it works again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2031-03-01T10:00:00.000Z').getTime();
    vi.setSystemTime(start);
    for (let i = 0; i < 3; i++) expect((await post(company.apiKey)).status).toBe(200);

    vi.setSystemTime(start + 20_000);
    const refused = await post(company.apiKey);
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBe(40);
    await expectError(refused, 429, 'Rate limit exceeded: at most 3 requests per minute per API key; retry after 40 seconds');

    // Reads count too (the limit is per key, whatever the route); another key is unaffected.
    expect((await GET(getRequest(`${API}/some-id`, company.apiKey), idParams('some-id'))).status).toBe(429);
    expect((await post(other.apiKey)).status).toBe(200);

    vi.setSystemTime(start + 20_000 + Number(retryAfter) * 1000);
    expect((await post(company.apiKey)).status).toBe(200);
  });

  it('records refused calls in the API audit log like any other answer', async () => {
    await flushApiAuditLog();
    const rows = await db.select({ status: apiAuditLog.status, companyId: apiAuditLog.companyId }).from(apiAuditLog);
    expect(rows.filter((row) => row.status === 429 && row.companyId === company.companyId)).toHaveLength(2);
  });

  it('answers 500 (and logs why) when SANDBOX_RATE_LIMIT_PER_MINUTE is not a usable number', async () => {
    const logs = captureLogs();
    process.env.SANDBOX_RATE_LIMIT_PER_MINUTE = 'lots';
    try {
      await expectError(await post(other.apiKey), 500, 'Internal server error');
      expect(logs.records()[0]).toMatchObject({
        level: 'error',
        err: { message: expect.stringContaining('SANDBOX_RATE_LIMIT_PER_MINUTE must be a whole number') },
      });
    } finally {
      process.env.SANDBOX_RATE_LIMIT_PER_MINUTE = '3';
      logs.restore();
    }
  });
});

describe('takeSandboxRequest under a generous limit', () => {
  afterEach(() => {
    process.env.SANDBOX_RATE_LIMIT_PER_MINUTE = '3';
  });

  it('counts exactly over a sliding minute, at a cost that does not grow with the load', () => {
    process.env.SANDBOX_RATE_LIMIT_PER_MINUTE = '60000';
    const start = Date.parse('2032-01-01T00:00:00Z');
    // 1000 requests a second for two minutes: 60 000 in any minute, the limit exactly. (Copying
    // the window on every request, as the first version did, made this take minutes.)
    let allowed = 0;
    for (let i = 0; i < 120_000; i++) if (takeSandboxRequest('busy-key', start + i).allowed) allowed += 1;
    expect(allowed).toBe(120_000);
    // The window is full: the next request in the same millisecond is refused…
    expect(takeSandboxRequest('busy-key', start + 119_999)).toEqual({ allowed: false, limit: 60000, retryAfterSeconds: 1 });
    // …and one millisecond later the oldest request has left the window.
    expect(takeSandboxRequest('busy-key', start + 120_000).allowed).toBe(true);
  });

  it('stays exact when the clock goes back', () => {
    process.env.SANDBOX_RATE_LIMIT_PER_MINUTE = '2';
    const t = Date.parse('2033-01-01T00:00:00Z');
    expect(takeSandboxRequest('skewed', t + 1000).allowed).toBe(true);
    expect(takeSandboxRequest('skewed', t).allowed).toBe(true);
    expect(takeSandboxRequest('skewed', t + 500).allowed).toBe(false);
    expect(takeSandboxRequest('skewed', t + 60_001).allowed).toBe(true); // t has left the window
    expect(takeSandboxRequest('skewed', t + 60_002).allowed).toBe(false); // t + 1000 has not
  });
});
