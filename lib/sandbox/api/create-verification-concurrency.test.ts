// POST /v1/verifications/new under simultaneous requests, against the real route handler: on
// PostgreSQL (the `postgres` project) their transactions really run at the same time, where an
// embedded database takes them one after the other. The rest of the contract, which does not
// depend on the store, is in create-verification.test.ts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { closeDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import { outbox } from '@/lib/sandbox/schema';
import { createRequest, createTestCompany, type TestCompany, useInMemorySandbox, validBody } from '@/test/support/sandbox';

let db: SandboxDb;
let company: TestCompany;

beforeAll(async () => {
  db = await useInMemorySandbox();
  company = await createTestCompany(db);
});

afterAll(async () => {
  await closeDatabases();
});

const post = (body: unknown) => POST(createRequest(body, { apiKey: company.apiKey }), undefined);

async function outboxOf(id: string) {
  const rows = await db.select().from(outbox).where(eq(outbox.verificationId, id));
  return rows.map(({ channel, recipient }) => ({ channel, recipient }));
}

describe('concurrency', () => {
  it('creates every one of 25 simultaneous requests, each with its own outbox row', async () => {
    const responses = await Promise.all(Array.from({ length: 25 }, (_, i) => post(validBody({ email: `person${i}@example.com` }))));
    expect(responses.map((r) => r.status)).toEqual(Array(25).fill(200));
    const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as { verificationId: string }).verificationId));
    expect(new Set(ids).size).toBe(25);
    for (const [i, id] of ids.entries()) {
      expect(await outboxOf(id)).toEqual([expect.objectContaining({ channel: 'email', recipient: `person${i}@example.com` })]);
    }
  });
});
