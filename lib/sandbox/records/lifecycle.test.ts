// The verification lifecycle against a real in-memory database: each transition happens once
// (also under concurrent clicks), terminal states are final, kept_until follows the company's
// retention, every change writes its webhook event in its own transaction, and the sweeper and
// the purge act on a controllable clock.
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getById } from '@/app/(sandbox)/v1/verifications/[id]/route';
import { closeDatabases } from '@/lib/platform/database';
import { parseCreateVerificationInput } from '@/lib/sandbox/api/create-verification-input';
import type { SandboxDb } from '@/lib/sandbox/db';
import { apiAuditLog, outbox, verifications, webhookDeliveries, webhookEndpoints, webhookMessages } from '@/lib/sandbox/schema';
import { API, createTestCompany, getRequest, idParams, type TestCompany, useInMemorySandbox, validBody } from '@/test/support/sandbox';
import {
  completeVerification,
  expireDuePendingVerifications,
  expireVerificationIfDue,
  FAILURE_REASON_CODES,
  FAILURE_REASONS,
  failVerification,
  purgeExpiredData,
  VERIFICATION_METHODS,
} from './lifecycle';
import { createVerification } from './verifications';

let db: SandboxDb;
let company: TestCompany;

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

beforeAll(async () => {
  db = await useInMemorySandbox();
  company = await createTestCompany(db, {
    name: 'Acme',
    tokenValiditySeconds: 3600,
    verificationRetentionSeconds: 86_400,
    auditLogRetentionSeconds: 7200,
  });
});

afterAll(async () => {
  await closeDatabases();
});

const at = (iso: string) => new Date(iso);
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);

async function newRequest(now: Date, owner: TestCompany = company, body: Record<string, unknown> = validBody()): Promise<string> {
  const parsed = parseCreateVerificationInput(body);
  if (!parsed.ok) throw new Error(parsed.error);
  const created = await createVerification(db, { companyId: owner.companyId, input: parsed.value, baseUrl: 'http://localhost', now });
  return created.verificationId;
}

async function row(id: string) {
  const [found] = await db.select().from(verifications).where(eq(verifications.id, id));
  return found;
}

async function events(verificationId: string) {
  const rows = await db
    .select()
    .from(webhookMessages)
    .where(sql`${webhookMessages.payload} -> 'data' ->> 'verificationId' = ${verificationId}`)
    .orderBy(asc(webhookMessages.createdAt), asc(webhookMessages.id));
  return rows.map((message) => ({
    id: message.id,
    type: message.type,
    status: (message.payload as { data: { status: string } }).data.status,
    createdAt: message.createdAt.toISOString(),
    companyId: message.companyId,
  }));
}

const types = async (verificationId: string) => (await events(verificationId)).map((event) => `${event.type}:${event.status}`);

describe('transitions', () => {
  it('completes once: name, date and method set, kept_until from the completion', async () => {
    const created = at('2030-01-01T10:00:00.000Z');
    const id = await newRequest(created);
    const done = at('2030-01-01T10:20:30.123Z');
    expect(await completeVerification(db, { verificationId: id, method: 'passport', identifiedName: 'JANE M DOE', now: done })).toBe(true);
    expect(await row(id)).toMatchObject({
      status: 'completed',
      identifiedName: 'JANE M DOE',
      identifiedDate: done,
      verificationMethod: 'passport',
      failedReason: null,
      accessExpiresAt: plus(created, HOUR),
      keptUntil: plus(done, DAY),
      updatedAt: done,
    });
    expect(await types(id)).toEqual(['verification.created:pending', 'verification.completed:completed']);
  });

  it('terminal states are final: nothing moves a completed, failed or expired request', async () => {
    const created = at('2030-01-02T10:00:00.000Z');
    const completed = await newRequest(created);
    const failed = await newRequest(created);
    const expired = await newRequest(created);
    const t = plus(created, 60 * SECOND);
    expect(await completeVerification(db, { verificationId: completed, method: 'id_card', identifiedName: 'A', now: t })).toBe(true);
    expect(await failVerification(db, { verificationId: failed, reason: 'person_declined', now: t })).toBe(true);
    expect(await expireVerificationIfDue(db, { verificationId: expired, now: plus(created, HOUR) })).toBe(true);

    const before = await Promise.all([completed, failed, expired].map(row));
    const later = plus(created, 30 * 60 * SECOND);
    for (const id of [completed, failed, expired]) {
      expect(await completeVerification(db, { verificationId: id, method: 'bank_id', identifiedName: 'B', now: later })).toBe(false);
      expect(await failVerification(db, { verificationId: id, reason: 'other', now: later })).toBe(false);
      expect(await expireVerificationIfDue(db, { verificationId: id, now: plus(created, 2 * HOUR) })).toBe(false);
    }
    expect(await Promise.all([completed, failed, expired].map(row))).toEqual(before);
    expect(await types(completed)).toEqual(['verification.created:pending', 'verification.completed:completed']);
    expect(await types(failed)).toEqual(['verification.created:pending', 'verification.failed:failed']);
    expect(await types(expired)).toEqual(['verification.created:pending', 'verification.expired:expired']);
  });

  it.each(FAILURE_REASON_CODES)('fails with %s: a readable reason, no method, no name', async (reason) => {
    const id = await newRequest(at('2030-01-03T10:00:00.000Z'));
    const now = at('2030-01-03T10:05:00.000Z');
    expect(await failVerification(db, { verificationId: id, reason, now })).toBe(true);
    expect(await row(id)).toMatchObject({
      status: 'failed',
      failedReason: FAILURE_REASONS[reason],
      verificationMethod: null,
      identifiedName: null,
      identifiedDate: null,
      keptUntil: plus(now, DAY),
    });
    expect(FAILURE_REASONS[reason]).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
  });

  it.each(VERIFICATION_METHODS)('completes with the method %s', async (method) => {
    const id = await newRequest(at('2030-01-04T10:00:00.000Z'));
    await completeVerification(db, { verificationId: id, method, identifiedName: 'Jane', now: at('2030-01-04T10:01:00.000Z') });
    expect((await row(id))?.verificationMethod).toBe(method);
  });

  it('of two different outcomes clicked at once, exactly one wins', async () => {
    const created = at('2030-01-05T10:00:00.000Z');
    const now = plus(created, 5 * SECOND);
    for (let round = 0; round < 8; round++) {
      const id = await newRequest(created);
      const results = await Promise.all([
        completeVerification(db, { verificationId: id, method: 'itsme', identifiedName: 'Jane', now }),
        failVerification(db, { verificationId: id, reason: 'name_mismatch', now }),
        completeVerification(db, { verificationId: id, method: 'passport', identifiedName: 'Other', now }),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const stored = await row(id);
      const winner = results.indexOf(true);
      expect(stored?.status).toBe(winner === 1 ? 'failed' : 'completed');
      if (winner !== 1) expect(stored?.verificationMethod).toBe(winner === 0 ? 'itsme' : 'passport');
      const terminal = (await events(id)).filter((event) => event.type !== 'verification.created');
      expect(terminal).toHaveLength(1);
      expect(terminal[0]?.status).toBe(stored?.status);
    }
  });

  it('refuses an outcome once access has expired, even before the sweep; the expiry then counts from access_expires_at', async () => {
    const created = at('2030-01-06T10:00:00.000Z');
    const id = await newRequest(created);
    const expiry = plus(created, HOUR);
    expect(await completeVerification(db, { verificationId: id, method: 'passport', identifiedName: 'Jane', now: expiry })).toBe(false);
    expect(await failVerification(db, { verificationId: id, reason: 'other', now: expiry })).toBe(false);
    expect((await row(id))?.status).toBe('pending');
    // Not due a millisecond earlier.
    expect(await expireVerificationIfDue(db, { verificationId: id, now: plus(expiry, -1) })).toBe(false);
    // Noticed an hour late, it still expired at access_expires_at: retention counts from there.
    const noticed = plus(expiry, HOUR);
    expect(await expireVerificationIfDue(db, { verificationId: id, now: noticed })).toBe(true);
    expect(await row(id)).toMatchObject({
      status: 'expired',
      identifiedName: null,
      identifiedDate: null,
      verificationMethod: null,
      failedReason: null,
      keptUntil: plus(expiry, DAY),
      updatedAt: noticed,
    });
    expect((await events(id)).at(-1)).toMatchObject({ type: 'verification.expired', status: 'expired', createdAt: noticed.toISOString() });
  });

  it("kept_until follows the company's own retention", async () => {
    const short = await createTestCompany(db, { tokenValiditySeconds: 600, verificationRetentionSeconds: 90 });
    const created = at('2030-01-07T10:00:00.000Z');
    const id = await newRequest(created, short);
    expect((await row(id))?.keptUntil).toEqual(plus(created, 90 * SECOND));
    const done = plus(created, 45 * SECOND);
    await failVerification(db, { verificationId: id, reason: 'document_unreadable', now: done });
    expect((await row(id))?.keptUntil).toEqual(plus(done, 90 * SECOND));
  });

  it('an unknown id changes nothing', async () => {
    const id = '3f2b8c1e-9d4a-4b7e-8f00-123456789abc';
    expect(await completeVerification(db, { verificationId: id, method: 'passport', identifiedName: 'X', now: new Date() })).toBe(false);
    expect(await events(id)).toEqual([]);
  });
});

describe('webhook events', () => {
  it('queue a delivery per active endpoint of the company, with the event time', async () => {
    const hooked = await createTestCompany(db, { name: 'Hooked' });
    const [active, disabled] = [crypto.randomUUID(), crypto.randomUUID()];
    await db.insert(webhookEndpoints).values([
      { id: active, companyId: hooked.companyId, url: 'http://localhost:9/hook', secret: 'whsec_dGVzdA==' },
      {
        id: disabled,
        companyId: hooked.companyId,
        url: 'http://localhost:9/old',
        secret: 'whsec_dGVzdA==',
        disabledAt: at('2029-01-01T00:00:00.000Z'),
      },
    ]);
    const created = at('2030-02-01T10:00:00.000Z');
    const id = await newRequest(created, hooked);
    const done = plus(created, 10 * SECOND);
    await completeVerification(db, { verificationId: id, method: 'drivers_license', identifiedName: 'Jane', now: done });

    const sent = await events(id);
    expect(sent.map(({ type, status, createdAt, companyId }) => ({ type, status, createdAt, companyId }))).toEqual([
      { type: 'verification.created', status: 'pending', createdAt: created.toISOString(), companyId: hooked.companyId },
      { type: 'verification.completed', status: 'completed', createdAt: done.toISOString(), companyId: hooked.companyId },
    ]);
    for (const event of sent) {
      const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.messageId, event.id));
      expect(deliveries).toEqual([expect.objectContaining({ endpointId: active, status: 'pending', attempts: 0 })]);
      expect(deliveries[0]?.nextAttemptAt.toISOString()).toBe(event.createdAt);
    }
    const [message] = await db.select().from(webhookMessages).where(eq(webhookMessages.id, sent[1]!.id));
    // Thin: the id and the status, nothing personal.
    expect(message?.payload).toEqual({
      type: 'verification.completed',
      timestamp: done.toISOString(),
      data: { verificationId: id, status: 'completed' },
    });
  });

  it('are written in the transition’s transaction: no event, no change', async () => {
    const created = at('2030-02-02T10:00:00.000Z');
    const id = await newRequest(created);
    await refuseEventsFor(id, async () => {
      await expect(
        completeVerification(db, { verificationId: id, method: 'passport', identifiedName: 'Jane', now: plus(created, SECOND) }),
      ).rejects.toThrow();
      await expect(failVerification(db, { verificationId: id, reason: 'other', now: plus(created, SECOND) })).rejects.toThrow();
      await expect(expireVerificationIfDue(db, { verificationId: id, now: plus(created, HOUR) })).rejects.toThrow();
    });
    expect(await row(id)).toMatchObject({ status: 'pending', identifiedName: null, keptUntil: plus(created, DAY) });
    expect(await types(id)).toEqual(['verification.created:pending']);
  });

  it('creation and its event commit together', async () => {
    const before = await db.select({ id: verifications.id }).from(verifications);
    await refuseEventsFor('*', async () => {
      await expect(newRequest(new Date(), company, validBody({ email: 'rollback@example.com' }))).rejects.toThrow();
    });
    expect(await db.select({ id: verifications.id }).from(verifications)).toHaveLength(before.length);
    expect(await db.select().from(outbox).where(eq(outbox.recipient, 'rollback@example.com'))).toEqual([]);
  });
});

/** Makes the database refuse webhook messages for one verification (or all, with '*') while `fn` runs. */
async function refuseEventsFor(verificationId: string, fn: () => Promise<void>): Promise<void> {
  await db.execute(
    sql.raw(`
      create or replace function sandbox.refuse_test_event() returns trigger language plpgsql as $$
      begin
        if '${verificationId}' = '*' or new.payload -> 'data' ->> 'verificationId' = '${verificationId}' then
          raise exception 'event refused by the test';
        end if;
        return new;
      end $$
    `),
  );
  await db.execute(
    sql.raw(`
      create trigger refuse_test_event before insert on sandbox.webhook_messages
        for each row execute function sandbox.refuse_test_event()
    `),
  );
  try {
    await fn();
  } finally {
    await db.execute(sql.raw('drop trigger refuse_test_event on sandbox.webhook_messages'));
  }
}

describe('the expiry sweeper', () => {
  it('expires what is due, once, on the clock it is given', async () => {
    const created = at('2030-03-01T10:00:00.000Z');
    const early = await newRequest(created);
    const late = await newRequest(plus(created, 30 * 60 * SECOND));
    const completed = await newRequest(created);
    await completeVerification(db, { verificationId: completed, method: 'passport', identifiedName: 'J', now: plus(created, SECOND) });

    await expireDuePendingVerifications(db, plus(created, HOUR - 1));
    expect((await row(early))?.status).toBe('pending');
    expect(await types(early)).toEqual(['verification.created:pending']);

    const due = plus(created, HOUR);
    expect(await expireDuePendingVerifications(db, due)).toBeGreaterThanOrEqual(1);
    expect(await row(early)).toMatchObject({ status: 'expired', keptUntil: plus(due, DAY), updatedAt: due });
    expect(await types(early)).toEqual(['verification.created:pending', 'verification.expired:expired']);
    expect((await row(late))?.status).toBe('pending');
    expect((await row(completed))?.status).toBe('completed');

    // A second sweep at the same time finds nothing left.
    expect(await expireDuePendingVerifications(db, due)).toBe(0);
    expect(await types(early)).toEqual(['verification.created:pending', 'verification.expired:expired']);

    await expireDuePendingVerifications(db, plus(created, 2 * HOUR));
    expect((await row(late))?.status).toBe('expired');
    expect(await types(completed)).toEqual(['verification.created:pending', 'verification.completed:completed']);
  });

  it('works through more than one batch', async () => {
    const many = await createTestCompany(db, { name: 'Many', tokenValiditySeconds: 60 });
    const created = at('2030-03-02T10:00:00.000Z');
    const ids = await Promise.all(Array.from({ length: 105 }, () => newRequest(created, many)));
    expect(await expireDuePendingVerifications(db, plus(created, 60 * SECOND))).toBeGreaterThanOrEqual(105);
    const rows = await db.select({ status: verifications.status }).from(verifications).where(eq(verifications.companyId, many.companyId));
    expect(rows.map((r) => r.status)).toEqual(Array(105).fill('expired'));
    const expiredEvents = await db
      .select({ id: webhookMessages.id })
      .from(webhookMessages)
      .where(and(eq(webhookMessages.companyId, many.companyId), eq(webhookMessages.type, 'verification.expired')));
    expect(expiredEvents).toHaveLength(ids.length);
  });

  it('leaves alone a request whose retention ended before its access did (the purge takes it)', async () => {
    const brief = await createTestCompany(db, { tokenValiditySeconds: 600, verificationRetentionSeconds: 60 });
    const created = at('2030-03-03T10:00:00.000Z');
    const id = await newRequest(created, brief);
    await expireDuePendingVerifications(db, plus(created, 700 * SECOND));
    expect((await row(id))?.status).toBe('pending');
    expect(await types(id)).toEqual(['verification.created:pending']);
  });
});

describe('the retention purge', () => {
  it('deletes records at kept_until with their outbox messages, keeps the events, and GET answers 404', async () => {
    const brief = await createTestCompany(db, { name: 'Brief', tokenValiditySeconds: 600, verificationRetentionSeconds: 60 });
    const endpoint = crypto.randomUUID();
    await db
      .insert(webhookEndpoints)
      .values({ id: endpoint, companyId: brief.companyId, url: 'http://localhost:9/h', secret: 'whsec_dGVzdA==' });
    const created = at('2030-04-01T10:00:00.000Z');
    const completed = await newRequest(created, brief, validBody({ email: 'purge-me@example.com' }));
    const kept = await newRequest(plus(created, 30 * SECOND), brief);
    const done = plus(created, 10 * SECOND);
    await completeVerification(db, { verificationId: completed, method: 'passport', identifiedName: 'Jane', now: done });
    expect(await db.select().from(outbox).where(eq(outbox.verificationId, completed))).toHaveLength(1);

    await purgeExpiredData(db, plus(done, 60 * SECOND - 1));
    expect(await row(completed)).toBeDefined();

    const purgeTime = plus(done, 60 * SECOND);
    expect((await purgeExpiredData(db, purgeTime)).verifications).toBeGreaterThanOrEqual(1);
    expect(await row(completed)).toBeUndefined();
    expect(await db.select().from(outbox).where(eq(outbox.verificationId, completed))).toEqual([]);
    expect(await row(kept)).toBeDefined();

    const history = await events(completed);
    expect(history.map(({ type, status }) => `${type}:${status}`)).toEqual([
      'verification.created:pending',
      'verification.completed:completed',
      'verification.purged:purged',
    ]);
    expect(history[2]?.createdAt).toBe(purgeTime.toISOString());
    const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.messageId, history[2]!.id));
    expect(deliveries).toEqual([expect.objectContaining({ endpointId: endpoint })]);

    const response = await getById(getRequest(`${API}/${completed}`, brief.apiKey), idParams(completed));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'Verification not found' });

    // Purged once.
    await purgeExpiredData(db, plus(purgeTime, HOUR));
    expect((await events(completed)).filter((event) => event.type === 'verification.purged')).toHaveLength(1);
  });

  it("deletes API audit-log entries past each company's audit retention", async () => {
    const now = at('2030-05-01T12:00:00.000Z');
    const short = await createTestCompany(db, { name: 'Short memory', auditLogRetentionSeconds: 7200 });
    const long = await createTestCompany(db, { name: 'Long memory', auditLogRetentionSeconds: 86_400 });
    const entry = (owner: TestCompany, ageMs: number, path: string) => ({
      id: crypto.randomUUID(),
      companyId: owner.companyId,
      at: plus(now, -ageMs),
      method: 'GET',
      path,
      status: 200,
    });
    await db
      .insert(apiAuditLog)
      .values([
        entry(short, 3 * HOUR, '/old'),
        entry(short, 2 * HOUR, '/exactly-at-retention'),
        entry(short, 2 * HOUR - 1, '/just-inside'),
        entry(short, 0, '/new'),
        entry(long, 3 * HOUR, '/other-old'),
        entry(long, DAY, '/other-at-retention'),
      ]);
    expect((await purgeExpiredData(db, now)).auditLogEntries).toBeGreaterThanOrEqual(3);
    const left = await db
      .select({ path: apiAuditLog.path })
      .from(apiAuditLog)
      .where(sql`${apiAuditLog.companyId} in (${short.companyId}, ${long.companyId})`)
      .orderBy(asc(apiAuditLog.at));
    expect(left.map((r) => r.path)).toEqual(['/other-old', '/just-inside', '/new']);
  });
});
