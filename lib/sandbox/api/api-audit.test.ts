// The sandbox's API audit log, through the real route handlers: one row per authenticated call
// (method, path with the id, status, time, company), whatever the answer, and nothing personal.
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GET as getOutbox } from '@/app/(sandbox)/v1/sandbox/outbox/route';
import { GET as getById } from '@/app/(sandbox)/v1/verifications/[id]/route';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { GET as getWithoutId } from '@/app/(sandbox)/v1/verifications/route';
import { closeDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import { apiAuditLog } from '@/lib/sandbox/schema';
import { captureLogs } from '@/test/support/logs';
import {
  API,
  createRequest,
  createTestCompany,
  getRequest,
  idParams,
  type TestCompany,
  useInMemorySandbox,
  validBody,
} from '@/test/support/sandbox';
import { API_AUDIT_FLUSH_MS, auditPath, flushApiAuditLog, listApiAuditLog, recordApiCall } from './api-audit';

let db: SandboxDb;

beforeAll(async () => {
  db = await useInMemorySandbox();
});

afterAll(async () => {
  await closeDatabases();
});

afterEach(() => {
  vi.useRealTimers();
});

const log = async (owner: TestCompany) =>
  (await listApiAuditLog(db, owner.companyId)).map(({ method, path, status }) => `${method} ${path} ${status}`);

describe('one row per authenticated call', () => {
  it('for creations and reads, successful or not, with the time of the call', async () => {
    const company = await createTestCompany(db, { name: 'Audited' });
    const other = await createTestCompany(db, { name: 'Other' });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-06-01T08:00:00.000Z'));
    const personal = { name: 'Jane Secret', email: 'jane.secret@example.com', chosenPurpose: 'private purpose' };
    const created = await POST(createRequest(validBody(personal), { apiKey: company.apiKey }), undefined);
    const { verificationId } = (await created.json()) as { verificationId: string };
    // One millisecond apart, so the log's order is the order of the calls.
    let clock = new Date('2030-06-01T08:00:01.000Z').getTime();
    const tick = () => vi.setSystemTime(new Date(clock++));
    tick();
    await POST(createRequest(validBody({ ...personal, language: 'de' }), { apiKey: company.apiKey }), undefined);
    tick();
    await getById(getRequest(`${API}/${verificationId}`, company.apiKey), idParams(verificationId));
    tick();
    await getById(getRequest(`${API}/${verificationId.toUpperCase()}?x=1`, company.apiKey), idParams(verificationId.toUpperCase()));
    const unknown = '3f2b8c1e-9d4a-4b7e-8f00-123456789abc';
    tick();
    await getById(getRequest(`${API}/${unknown}`, company.apiKey), idParams(unknown));
    // A caller who puts personal data where the id goes: the path does not keep it.
    tick();
    await getById(getRequest(`${API}/jane.secret@example.com`, company.apiKey), idParams('jane.secret@example.com'));
    tick();
    await getWithoutId(getRequest(`${API}/`, company.apiKey), undefined);
    tick();
    await getById(getRequest(`${API}/${verificationId}`, other.apiKey), idParams(verificationId));
    tick();
    await getOutbox(
      new Request('http://localhost/v1/sandbox/outbox', { headers: { Authorization: `Bearer ${company.apiKey}` } }),
      undefined,
    );

    expect(await log(company)).toEqual([
      'POST /v1/verifications/new 200',
      'POST /v1/verifications/new 400',
      `GET /v1/verifications/${verificationId} 200`,
      `GET /v1/verifications/${verificationId} 200`,
      `GET /v1/verifications/${unknown} 404`,
      'GET /v1/verifications/{invalid} 400',
      'GET /v1/verifications/ 400',
      'GET /v1/sandbox/outbox 200',
    ]);
    // The 403 is filed under the company that asked, not the owner.
    expect(await log(other)).toEqual([`GET /v1/verifications/${verificationId} 403`]);

    const rows = await db.select().from(apiAuditLog).where(eq(apiAuditLog.companyId, company.companyId)).orderBy(asc(apiAuditLog.at));
    expect(rows[0]?.at).toEqual(new Date('2030-06-01T08:00:00.000Z'));
    expect(rows[1]?.at).toEqual(new Date('2030-06-01T08:00:01.000Z'));
    expect(Object.keys(rows[0]!).sort()).toEqual(['at', 'companyId', 'id', 'method', 'path', 'status']);
    const everything = JSON.stringify(await db.select().from(apiAuditLog));
    for (const secret of ['Jane', 'jane', 'Secret', '@', 'private purpose', company.apiKey, other.apiKey]) {
      expect(everything).not.toContain(secret);
    }
  });

  it('none for calls without a valid key: there is no company to file them under', async () => {
    await flushApiAuditLog();
    const before = await db.select().from(apiAuditLog);
    await POST(createRequest(validBody()), undefined);
    await POST(createRequest(validBody(), { apiKey: 'vd_sk_wrong' }), undefined);
    await getById(getRequest(`${API}/3f2b8c1e-9d4a-4b7e-8f00-123456789abc`), idParams('3f2b8c1e-9d4a-4b7e-8f00-123456789abc'));
    await flushApiAuditLog();
    expect(await db.select().from(apiAuditLog)).toHaveLength(before.length);
  });

  it('records a 500 too', async () => {
    const company = await createTestCompany(db, { name: 'Crashing' });
    const logs = captureLogs();
    // A database that refuses new verifications makes the creation crash after authentication.
    await db.execute(
      `create or replace function sandbox.refuse_test_verification() returns trigger language plpgsql as $$
       begin raise exception 'refused by the test'; end $$`,
    );
    await db.execute(
      'create trigger refuse_test_verification before insert on sandbox.verifications for each row execute function sandbox.refuse_test_verification()',
    );
    try {
      expect((await POST(createRequest(validBody(), { apiKey: company.apiKey }), undefined)).status).toBe(500);
    } finally {
      await db.execute('drop trigger refuse_test_verification on sandbox.verifications');
      logs.restore();
    }
    expect(await log(company)).toEqual(['POST /v1/verifications/new 500']);
  });
});

describe('batched writes', () => {
  const rawRows = (companyId: string) => db.select().from(apiAuditLog).where(eq(apiAuditLog.companyId, companyId));

  it('a call is in the table within the flush delay, without anyone flushing', async () => {
    const company = await createTestCompany(db, { name: 'Timely' });
    const started = Date.now();
    await getById(
      getRequest(`${API}/3f2b8c1e-9d4a-4b7e-8f00-123456789abc`, company.apiKey),
      idParams('3f2b8c1e-9d4a-4b7e-8f00-123456789abc'),
    );
    while ((await rawRows(company.companyId)).length === 0) {
      // Generous against a busy machine, but bounded: the timer, not a reader, wrote the row.
      expect(Date.now() - started).toBeLessThan(API_AUDIT_FLUSH_MS + 2_000);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await rawRows(company.companyId)).map((row) => row.status)).toEqual([404]);
  });

  it('many calls are written together, all of them, in one INSERT per batch', async () => {
    const company = await createTestCompany(db, { name: 'Busy' });
    const insert = vi.spyOn(db, 'insert');
    try {
      const calls = Array.from({ length: 120 }, (_, i) =>
        recordApiCall(db, { companyId: company.companyId, method: 'get', url: `${API}/${i}`, status: 200, at: new Date() }),
      );
      await Promise.all(calls);
      expect(insert).toHaveBeenCalledTimes(1);
    } finally {
      insert.mockRestore();
    }
    expect(await rawRows(company.companyId)).toHaveLength(120);
  });

  it('a row that cannot be written fails alone; the rest of its batch is written', async () => {
    const company = await createTestCompany(db, { name: 'Mixed' });
    const good = recordApiCall(db, { companyId: company.companyId, method: 'GET', url: `${API}/`, status: 400, at: new Date() });
    // No such company: the foreign key refuses this row.
    const bad = recordApiCall(db, {
      companyId: '00000000-0000-4000-8000-000000000000',
      method: 'GET',
      url: `${API}/`,
      status: 400,
      at: new Date(),
    });
    await expect(bad).rejects.toThrow();
    await expect(good).resolves.toBeUndefined();
    expect(await rawRows(company.companyId)).toHaveLength(1);
  });

  // Last in the file: it closes the database.
  it('closing the database (what shutdown does) writes the rows still waiting first', async () => {
    const company = await createTestCompany(db, { name: 'Shutting down' });
    const waiting = recordApiCall(db, { companyId: company.companyId, method: 'GET', url: `${API}/`, status: 400, at: new Date() });
    let rowsAtClose = -1;
    const { onBeforeCloseDatabases } = await import('@/lib/platform/database');
    // Registered after the writer's own hook, so it sees what the flush left behind.
    onBeforeCloseDatabases(async () => {
      await waiting;
      rowsAtClose = (await rawRows(company.companyId)).length;
    });
    await closeDatabases();
    await expect(waiting).resolves.toBeUndefined();
    expect(rowsAtClose).toBe(1);
  });
});

describe('auditPath', () => {
  it.each([
    ['http://localhost/v1/verifications/new', '/v1/verifications/new'],
    [
      'http://localhost/v1/verifications/3F2B8C1E-9D4A-4B7E-8F00-123456789ABC?email=a@b.c',
      '/v1/verifications/3f2b8c1e-9d4a-4b7e-8f00-123456789abc',
    ],
    ['http://localhost/v1/verifications/Jane%20Doe', '/v1/verifications/{invalid}'],
    ['http://localhost/v1/verifications/%00', '/v1/verifications/{invalid}'],
    ['http://localhost/v1/verifications/', '/v1/verifications/'],
    ['http://localhost/v1/sandbox/outbox', '/v1/sandbox/outbox'],
  ])('%s → %s', (url, path) => {
    expect(auditPath(url)).toBe(path);
  });
});
