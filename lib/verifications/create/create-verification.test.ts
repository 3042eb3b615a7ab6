// The create-once guarantee and "nothing half-written", against a real HTTP upstream and a
// real (in-memory) PGlite database.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, createSubmissions, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { VerificationServiceError } from '@/lib/verification-service';
import { type Behaviour, type FakeUpstream, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { contactDigestsOfRequest } from '@/lib/verifications/register/contact-digest.server';
import { CreateLimitReachedError, createVerificationOnce, purgeOldSubmissionKeys } from './create-verification.server';
import { createLimitQuery } from './rate-limit.server';

let upstream: FakeUpstream;

const body = { name: 'Alice Martin', email: 'alice@example.com', chosenPurpose: 'legal_obligations', language: 'en' as const };

/** Answers creates after a delay (so duplicates overlap) with a fresh id, and reads with a record. */
function service({ delayMs = 150, createStatus = 200 } = {}): Behaviour {
  return (req, res) => {
    if (req.method === 'POST') {
      setTimeout(() => {
        const payload =
          createStatus === 200
            ? { message: 'Verification request created successfully.', verificationId: randomUUID(), link: 'https://svc.example/v/abc' }
            : { error: 'Internal server error' };
        res.writeHead(createStatus, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(payload));
      }, delayMs);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        inputted_name: 'Alice Martin',
        status: 'pending',
        purpose: 'legal_obligations',
        access_expires_at: '2030-01-08T00:00:00.000Z',
        identified_name: null,
        identified_date: null,
        verification_method: null,
        failed_reason: null,
        kept_until: '2030-02-01T00:00:00.000Z',
      }),
    );
  };
}

const posts = () => upstream.requests.filter((r) => r.method === 'POST').length;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  process.env.DATA_DIR = 'memory://';
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  // Long enough that the waiting copies of a form outlast the first one on a loaded machine (they
  // give up this long plus a margin after they start waiting); no test here waits for it.
  process.env.VERIFICATION_API_TIMEOUT_MS = '10000';
  resetEnv();
});

beforeEach(() => {
  upstream.requests.length = 0;
});

afterAll(async () => {
  await upstream.close();
  await closeDatabases();
});

describe('createVerificationOnce', () => {
  it('creates exactly one request upstream for concurrent submissions of one form', async () => {
    upstream.program(service());
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 5 }, () => createVerificationOnce(key, body, null)));

    expect(posts()).toBe(1);
    expect(new Set(results.map((r) => r.verificationId)).size).toBe(1);
    expect(results.every((r) => r.link === 'https://svc.example/v/abc')).toBe(true);
    const db = await getDb();
    const rows = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, results[0]!.verificationId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Alice Martin', purpose: 'legal_obligations', shareableLink: false, emailNotification: true });
    // A later resubmission (browser back + submit) still gets the first result.
    expect((await createVerificationOnce(key, body, null)).verificationId).toBe(results[0]!.verificationId);
    expect(posts()).toBe(1);
  });

  it('different forms create different requests', async () => {
    upstream.program(service({ delayMs: 0 }));
    const [a, b] = await Promise.all([createVerificationOnce(randomUUID(), body, null), createVerificationOnce(randomUUID(), body, null)]);
    expect(a.verificationId).not.toBe(b.verificationId);
    expect(posts()).toBe(2);
  });

  it('keeps the keyed hashes of the address and the number in the register, never them', async () => {
    upstream.program(service({ delayMs: 0 }));
    const sent = { ...body, email: 'Alice.Martin@Example.com', phonenumber: '+32470123456', smsNotification: true };
    const { verificationId } = await createVerificationOnce(randomUUID(), sent, null);
    const db = await getDb();
    const [row] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, verificationId));
    expect(row!.contactDigests).toEqual(await contactDigestsOfRequest({ email: 'alice.martin@example.com', phonenumber: '+32470123456' }));
    expect(row!.contactDigests).toHaveLength(2);
    expect(JSON.stringify(row).toLowerCase()).not.toMatch(/alice\.martin@|470123456/);
    // A request with a shareable link only has nothing to hash.
    const linkOnly = await createVerificationOnce(
      randomUUID(),
      { name: 'B', chosenPurpose: 'audit', language: 'en', shareableLink: true },
      null,
    );
    const [bare] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, linkOnly.verificationId));
    expect(bare!.contactDigests).toEqual([]);
  });

  it('writes nothing when the service fails, and lets the same form be retried', async () => {
    upstream.program(service({ delayMs: 0, createStatus: 500 }));
    const key = randomUUID();
    const db = await getDb();
    const before = (await db.select().from(verificationRequests)).length;

    await expect(createVerificationOnce(key, body, null)).rejects.toBeInstanceOf(VerificationServiceError);
    expect(posts()).toBe(1); // never retried automatically
    expect((await db.select().from(verificationRequests)).length).toBe(before);
    expect(await db.select().from(createSubmissions).where(eq(createSubmissions.key, key))).toHaveLength(0);

    upstream.program(service({ delayMs: 0 }));
    const created = await createVerificationOnce(key, body, null);
    expect(created.verificationId).toBeTruthy();
    expect((await db.select().from(verificationRequests)).length).toBe(before + 1);
  });

  it('writes the register entry, its audit event and the settled claim together, or none of them', async () => {
    upstream.program(service({ delayMs: 0 }));
    const db = await getDb();
    // The audit write fails after the service has created the request.
    await db.execute(
      sql.raw(`create function refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`),
    );
    await db.execute(sql.raw('create trigger refuse_audit before insert on audit_entries for each row execute function refuse_audit()'));
    const key = randomUUID();
    const before = (await db.select().from(verificationRequests)).length;
    try {
      await expect(createVerificationOnce(key, body, null)).rejects.toThrow();
    } finally {
      await db.execute(sql.raw('drop trigger refuse_audit on audit_entries'));
      await db.execute(sql.raw('drop function refuse_audit()'));
    }
    expect((await db.select().from(verificationRequests)).length).toBe(before);
    const [claim] = await db.select().from(createSubmissions).where(eq(createSubmissions.key, key));
    expect(claim?.verificationId).toBeNull();

    // With the audit trail writable again, a create writes all three.
    const created = await createVerificationOnce(randomUUID(), body, null);
    expect(
      await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, created.verificationId)),
    ).toHaveLength(1);
    expect(await db.select().from(auditEntries).where(eq(auditEntries.targetId, created.verificationId))).toHaveLength(1);
  });

  it('fills in the expiry dates from a read after the create', async () => {
    upstream.program(service({ delayMs: 0 }));
    const created = await createVerificationOnce(randomUUID(), body, null);
    const db = await getDb();
    await expect
      .poll(async () => {
        const [row] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, created.verificationId));
        return row?.accessExpiresAt?.toISOString();
      })
      .toBe('2030-01-08T00:00:00.000Z');
  });
});

describe('createVerificationOnce under the create limit (the slot and the claim in one statement)', () => {
  const T0 = 1_800_000_000_000;

  beforeAll(() => {
    process.env.CREATE_RATE_LIMIT_PER_MINUTE = '3';
    resetEnv();
  });

  afterAll(() => {
    delete process.env.CREATE_RATE_LIMIT_PER_MINUTE;
    resetEnv();
  });

  it('creates within the limit, then refuses before the service is called, claiming nothing', async () => {
    upstream.program(service({ delayMs: 0 }));
    const staff = randomUUID();
    for (let i = 0; i < 3; i++) {
      const key = randomUUID();
      await expect(createVerificationOnce(key, body, null, null, createLimitQuery(staff, key, T0 + i * 1_000))).resolves.toMatchObject({
        verificationId: expect.any(String),
      });
    }
    expect(posts()).toBe(3);

    const refusedKey = randomUUID();
    const refusal = createVerificationOnce(refusedKey, body, null, null, createLimitQuery(staff, refusedKey, T0 + 30_000));
    await expect(refusal).rejects.toBeInstanceOf(CreateLimitReachedError);
    // The oldest of the three leaves the window at T0 + 60 s: 30 s from the refused attempt.
    await expect(refusal).rejects.toMatchObject({ decision: { allowed: false, limit: 3, retryAfterSeconds: 30 } });
    expect(posts()).toBe(3);
    const db = await getDb();
    expect(await db.select().from(createSubmissions).where(eq(createSubmissions.key, refusedKey))).toHaveLength(0);

    // Another staff member has slots of their own.
    const otherKey = randomUUID();
    await expect(
      createVerificationOnce(otherKey, body, null, null, createLimitQuery(randomUUID(), otherKey, T0 + 30_000)),
    ).resolves.toBeDefined();
    expect(posts()).toBe(4);
  });

  it('gives concurrent copies of one form one request and one slot', async () => {
    upstream.program(service());
    const staff = randomUUID();
    const key = randomUUID();
    const copies = await Promise.all(
      Array.from({ length: 4 }, () => createVerificationOnce(key, body, null, null, createLimitQuery(staff, key, T0))),
    );
    expect(new Set(copies.map((c) => c.verificationId)).size).toBe(1);
    expect(posts()).toBe(1);
    // One slot used of three: two other forms still go through, the next is refused.
    for (const offset of [1, 2]) {
      const next = randomUUID();
      await expect(createVerificationOnce(next, body, null, null, createLimitQuery(staff, next, T0 + offset))).resolves.toBeDefined();
    }
    const fourth = randomUUID();
    await expect(createVerificationOnce(fourth, body, null, null, createLimitQuery(staff, fourth, T0 + 3))).rejects.toBeInstanceOf(
      CreateLimitReachedError,
    );
    expect(posts()).toBe(3);
  });
});

describe('purgeOldSubmissionKeys', () => {
  it('forgets keys older than a day and keeps the rest', async () => {
    const db = await getDb();
    const now = new Date('2030-01-02T12:00:00.000Z');
    const [old, recent] = [randomUUID(), randomUUID()];
    await db.insert(createSubmissions).values([
      { key: old, createdAt: new Date('2030-01-01T00:00:00.000Z') },
      { key: recent, createdAt: new Date('2030-01-02T11:00:00.000Z') },
    ]);
    expect(await purgeOldSubmissionKeys(now)).toBeGreaterThanOrEqual(1);
    expect(await db.select().from(createSubmissions).where(eq(createSubmissions.key, recent))).toHaveLength(1);
    expect(await db.select().from(createSubmissions).where(eq(createSubmissions.key, old))).toHaveLength(0);
  });
});
