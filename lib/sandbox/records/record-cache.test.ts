// The record cache in front of GET /v1/verifications/{id}: on the embedded store it serves
// repeated reads, yet every change made through the sandbox (an outcome, an expiry, a purge) is
// visible on the very next read, also when reads and changes overlap. On a PostgreSQL server,
// where a second pool plays another instance, a change made there is visible here at once.
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getById } from '@/app/(sandbox)/v1/verifications/[id]/route';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { closeDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import * as sandboxSchema from '@/lib/sandbox/schema';
import { verifications } from '@/lib/sandbox/schema';
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
import { completeVerification, expireDuePendingVerifications, failVerification, purgeExpiredData } from './lifecycle';
import { recordCacheOf } from './record-cache';

/** A server's instances share it with others: they keep no cache (see record-cache.ts). */
const onServer = Boolean(process.env.DATABASE_URL);

let db: SandboxDb;
let company: TestCompany;

beforeAll(async () => {
  db = await useInMemorySandbox();
  company = await createTestCompany(db, { tokenValiditySeconds: 60, verificationRetentionSeconds: 3_600 });
});

afterAll(async () => {
  await closeDatabases();
});

async function create(): Promise<string> {
  const response = await POST(createRequest(validBody(), { apiKey: company.apiKey }), undefined);
  expect(response.status).toBe(200);
  return ((await response.json()) as { verificationId: string }).verificationId;
}

async function read(id: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await getById(getRequest(`${API}/${id}`, company.apiKey), idParams(id));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('record cache', () => {
  it.skipIf(onServer)('serves a repeated read without asking the database', async () => {
    const id = await create();
    expect((await read(id)).body.status).toBe('pending');
    // Behind the sandbox's back (nothing in the product writes like this): the cached row still answers.
    await db.update(verifications).set({ purpose: 'changed behind the cache' }).where(eq(verifications.id, id));
    expect((await read(id)).body.purpose).not.toBe('changed behind the cache');
    // Forgetting the id makes the next read go to the database again.
    recordCacheOf(db).invalidate(id);
    expect((await read(id)).body.purpose).toBe('changed behind the cache');
  });

  it('shows an outcome on the first read after it, though the record was read (and cached) before', async () => {
    const completed = await create();
    const failed = await create();
    await read(completed);
    await read(failed);
    expect(
      await completeVerification(db, { verificationId: completed, method: 'passport', identifiedName: 'JANE DOE', now: new Date() }),
    ).toBe(true);
    expect(await failVerification(db, { verificationId: failed, reason: 'document_expired', now: new Date() })).toBe(true);
    expect((await read(completed)).body).toMatchObject({
      status: 'completed',
      identified_name: 'JANE DOE',
      verification_method: 'passport',
    });
    expect((await read(failed)).body).toMatchObject({ status: 'failed', failed_reason: 'Document expired' });
  });

  it('shows the sweeper’s expiry and the purge on the first read after them', async () => {
    const id = await create();
    const [row] = await db.select().from(verifications).where(eq(verifications.id, id));
    await read(id);
    // The sweeper runs at a time past the access expiry: the record expires, kept for an hour more.
    const expiredAt = new Date(row!.accessExpiresAt.getTime() + 1);
    expect(await expireDuePendingVerifications(db, expiredAt)).toBeGreaterThanOrEqual(1);
    const afterExpiry = await read(id);
    expect(afterExpiry.body.status).toBe('expired');
    // The purge, run once kept_until has passed, deletes it: the cached row must not answer.
    const keptUntil = new Date(afterExpiry.body.kept_until as string);
    expect((await purgeExpiredData(db, new Date(keptUntil.getTime() + 1))).verifications).toBeGreaterThanOrEqual(1);
    expect(await read(id)).toEqual({ status: 404, body: { error: 'Verification not found' } });
  });

  it.skipIf(onServer)('never keeps a row read before a change that committed while the read was in flight', async () => {
    const cache = recordCacheOf(db);
    const id = await create();
    const [stale] = await db.select().from(verifications).where(eq(verifications.id, id));
    const readAt = cache.generation();
    // The change commits and invalidates between the read's SELECT and its store.
    cache.invalidate(id);
    cache.store(id, stale!, readAt);
    expect(cache.get(id)).toBeUndefined();
    // A store from a read that started after the invalidation is kept.
    cache.store(id, stale!, cache.generation());
    expect(cache.get(id)).toBe(stale);
  });

  it('reads racing outcomes: once the outcome is reported done, every later read shows it', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => create()));
    await Promise.all(
      ids.map(async (id, index) => {
        // Reads in flight on both sides of the change.
        const reads = Array.from({ length: 5 }, () => read(id));
        const change =
          index % 2 === 0
            ? completeVerification(db, { verificationId: id, method: 'id_card', identifiedName: `PERSON ${index}`, now: new Date() })
            : failVerification(db, { verificationId: id, reason: 'name_mismatch', now: new Date() });
        reads.push(read(id), read(id));
        expect(await change).toBe(true);
        await Promise.all(reads);
        expect((await read(id)).body.status).toBe(index % 2 === 0 ? 'completed' : 'failed');
      }),
    );
  });
});

describe.skipIf(!onServer)('several instances on one PostgreSQL server', () => {
  let otherPool: pg.Pool;
  /** Another instance of the sandbox: its own pool on the same database. */
  let other: SandboxDb;

  beforeAll(() => {
    otherPool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    other = drizzle({ client: otherPool, schema: sandboxSchema });
  });

  afterAll(async () => {
    await otherPool.end();
  });

  it('shows an outcome recorded by another instance on the very next read here, though the record was just read here', async () => {
    const id = await create();
    expect((await read(id)).body.status).toBe('pending');
    expect((await read(id)).body.status).toBe('pending');
    expect(await completeVerification(other, { verificationId: id, method: 'passport', identifiedName: 'JANE DOE', now: new Date() })).toBe(
      true,
    );
    expect((await read(id)).body).toMatchObject({ status: 'completed', identified_name: 'JANE DOE' });
  });

  it("shows another instance's failure and then its purge on the very next read here", async () => {
    const id = await create();
    expect((await read(id)).body.status).toBe('pending');
    expect(await failVerification(other, { verificationId: id, reason: 'document_expired', now: new Date() })).toBe(true);
    const failed = await read(id);
    expect(failed.body.status).toBe('failed');
    const keptUntil = new Date(failed.body.kept_until as string);
    expect((await purgeExpiredData(other, new Date(keptUntil.getTime() + 1))).verifications).toBeGreaterThanOrEqual(1);
    expect(await read(id)).toEqual({ status: 404, body: { error: 'Verification not found' } });
  });
});
