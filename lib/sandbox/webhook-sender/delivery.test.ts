// The webhook sender against a real local receiver that verifies every delivery with the
// standardwebhooks package: signing and payload shape, retries on the schedule (a controllable
// clock and jitter), faults below HTTP, claims that keep concurrent passes apart, which
// endpoints get what, and the worker's prompt kick.
import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxDb } from '@/lib/sandbox/db';
import * as sandboxSchema from '@/lib/sandbox/schema';
import { webhookAttempts, webhookDeliveries, webhookMessages } from '@/lib/sandbox/schema';
import { createTestCompany, useInMemorySandbox } from '@/test/support/sandbox';
import { type OtherInstanceDb, openOtherInstanceDb } from '@/test/support/second-instance';
import {
  deliverDueWebhooks,
  nextAttemptDelayMs,
  serializeWebhookPayload,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
  WEBHOOK_RETRY_JITTER,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_USER_AGENT,
} from './delivery-pass';
import { addWebhookEndpoint, disableWebhookEndpoint } from './endpoints';
import { enqueueVerificationEvent, type VerificationEventType } from './enqueue';
import { closedPortUrl, startTestReceiver, type TestReceiver } from './test-receiver';
import { createWebhookDeliveryWorker, kickWebhookDelivery, startWebhookDelivery } from './worker';

let db: SandboxDb;
let other: OtherInstanceDb<typeof sandboxSchema>;
const receivers: TestReceiver[] = [];

beforeAll(async () => {
  db = await useInMemorySandbox();
  other = openOtherInstanceDb(sandboxSchema, db);
});

afterAll(async () => {
  await other.close();
});

beforeEach(async () => {
  // Every pass works on the whole queue: leftovers of an earlier test must not be sent here.
  await db.delete(webhookMessages);
});

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

/** A company with one endpoint at a fresh receiver that knows the endpoint's secret. */
async function companyWithReceiver() {
  const { companyId } = await createTestCompany(db);
  const receiver = await startTestReceiver();
  receivers.push(receiver);
  const endpoint = await addWebhookEndpoint(db, { companyId, url: receiver.url });
  receiver.setSecret(endpoint.secret);
  return { companyId, receiver, endpoint };
}

async function enqueue(
  companyId: string,
  {
    type = 'verification.completed',
    status = 'completed',
    now = new Date(),
  }: { type?: VerificationEventType; status?: string; now?: Date } = {},
) {
  const verificationId = randomUUID();
  const { messageId } = await db.transaction((tx) => enqueueVerificationEvent(tx, { companyId, verificationId, type, status, now }));
  return { messageId, verificationId };
}

async function deliveriesOf(messageId: string) {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.messageId, messageId));
}

async function onlyDelivery(messageId: string) {
  const rows = await deliveriesOf(messageId);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

async function attemptsOf(deliveryId: string) {
  return db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(asc(webhookAttempts.attemptedAt));
}

const later = (date: Date, ms: number) => new Date(date.getTime() + ms);

describe('nextAttemptDelayMs', () => {
  it('gives up within 2 hours even at the slowest, far inside the week the dashboard keeps receipts', () => {
    // Every wait stretched by the full jitter, every attempt timing out. The dashboard keeps a
    // delivery's webhook-id 7 days (lib/webhook-receiver/receipt-retention.ts) to catch redeliveries.
    const senderWindowMs =
      WEBHOOK_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0) * (1 + WEBHOOK_RETRY_JITTER) +
      WEBHOOK_MAX_ATTEMPTS * WEBHOOK_TIMEOUT_MS;
    expect(senderWindowMs).toBeLessThan(2 * 60 * 60 * 1000);
  });

  it('follows the schedule with ±20% jitter and stops after the sixth attempt', () => {
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(6);
    for (let attempt = 1; attempt < WEBHOOK_MAX_ATTEMPTS; attempt += 1) {
      const base = WEBHOOK_RETRY_DELAYS_MS[attempt - 1]!;
      expect(nextAttemptDelayMs(attempt, () => 0.5)).toBe(base);
      expect(nextAttemptDelayMs(attempt, () => 0)).toBe(Math.round(base * 0.8));
      expect(nextAttemptDelayMs(attempt, () => 0.999_999)).toBeCloseTo(base * 1.2, -1);
      // A broken random source cannot push it outside the band.
      expect(nextAttemptDelayMs(attempt, () => 7)).toBe(Math.round(base * 1.2));
      expect(nextAttemptDelayMs(attempt, () => -1)).toBe(Math.round(base * 0.8));
    }
    expect(nextAttemptDelayMs(6, () => 0.5)).toBeUndefined();
    expect(nextAttemptDelayMs(0, () => 0.5)).toBeUndefined();
    expect(nextAttemptDelayMs(1.5, () => 0.5)).toBeUndefined();
  });

  it('grows each time and spreads six attempts over about an hour', () => {
    const delays = WEBHOOK_RETRY_DELAYS_MS.map((_, index) => nextAttemptDelayMs(index + 1, () => 0.5)!);
    for (let i = 1; i < delays.length; i += 1) expect(delays[i]!).toBeGreaterThan(delays[i - 1]!);
    const total = delays.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(50 * 60_000);
    expect(total).toBeLessThan(80 * 60_000);
  });
});

describe('deliverDueWebhooks', () => {
  it('POSTs the thin event as JSON, signed so the endpoint secret verifies it', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    const now = new Date();
    const { messageId, verificationId } = await enqueue(companyId, { type: 'verification.completed', status: 'completed', now });

    expect(await deliverDueWebhooks(db, { now })).toEqual({ claimed: 1, succeeded: 1, retrying: 0, failed: 0 });

    expect(receiver.hits).toHaveLength(1);
    const [hit] = receiver.hits;
    expect(hit!.verifyError).toBeUndefined();
    expect(hit!.verified).toBe(true);
    expect(hit!.path).toBe('/hooks');
    expect(hit!.headers['webhook-id']).toBe(messageId);
    expect(hit!.headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(hit!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(hit!.headers['content-type']).toBe('application/json');
    expect(hit!.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    // The exact bytes, in the documented key order.
    expect(hit!.body).toBe(
      JSON.stringify({
        type: 'verification.completed',
        timestamp: now.toISOString(),
        data: { verificationId, status: 'completed' },
      }),
    );

    const delivery = await onlyDelivery(messageId);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lockedUntil: null });
    const attempts = await attemptsOf(delivery.id);
    expect(attempts).toEqual([
      expect.objectContaining({ attemptedAt: now, responseStatus: 200, error: null, durationMs: expect.any(Number) }),
    ]);

    // Done means done: nothing is sent again.
    expect(await deliverDueWebhooks(db, { now: later(now, 24 * 3_600_000) })).toMatchObject({ claimed: 0 });
    expect(receiver.hits).toHaveLength(1);
  });

  it('a signature made with another secret, or over a changed byte, does not verify', async () => {
    const { companyId, receiver, endpoint } = await companyWithReceiver();
    const endpointId = endpoint.id;
    await enqueue(companyId);
    await deliverDueWebhooks(db);
    const [hit] = receiver.hits;
    const headers = {
      'webhook-id': String(hit!.headers['webhook-id']),
      'webhook-timestamp': String(hit!.headers['webhook-timestamp']),
      'webhook-signature': String(hit!.headers['webhook-signature']),
    };
    const other = await addWebhookEndpoint(db, { companyId, url: receiver.url });
    expect(() => new Webhook(other.secret).verify(hit!.body, headers)).toThrow();
    // The right secret, but one byte of the body changed.
    const endpointSecret = await db.query.webhookEndpoints.findFirst({ where: (e, { eq: is }) => is(e.id, endpointId) });
    expect(() => new Webhook(endpointSecret!.secret).verify(hit!.body, headers)).not.toThrow();
    expect(() => new Webhook(endpointSecret!.secret).verify(hit!.body.replace('completed', 'complete!'), headers)).toThrow();
  });

  it('retries a 500 after the first step of the schedule, with the same webhook-id, then succeeds', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    receiver.answer(500, 200);
    const t0 = new Date();
    const { messageId } = await enqueue(companyId, { now: t0 });

    expect(await deliverDueWebhooks(db, { now: t0, random: () => 0.5 })).toEqual({ claimed: 1, succeeded: 0, retrying: 1, failed: 0 });
    let delivery = await onlyDelivery(messageId);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lockedUntil: null });
    expect(delivery.nextAttemptAt).toEqual(later(t0, 30_000));

    // Not yet due.
    expect(await deliverDueWebhooks(db, { now: later(t0, 29_999) })).toMatchObject({ claimed: 0 });

    const t1 = later(t0, 30_000);
    expect(await deliverDueWebhooks(db, { now: t1 })).toMatchObject({ claimed: 1, succeeded: 1 });
    delivery = await onlyDelivery(messageId);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2 });

    expect(receiver.hits).toHaveLength(2);
    expect(receiver.hits.map((hit) => hit.headers['webhook-id'])).toEqual([messageId, messageId]);
    expect(receiver.hits.map((hit) => hit.headers['webhook-timestamp'])).toEqual([
      String(Math.floor(t0.getTime() / 1000)),
      String(Math.floor(t1.getTime() / 1000)),
    ]);
    expect(receiver.hits.every((hit) => hit.verified)).toBe(true);
    expect((await attemptsOf(delivery.id)).map((a) => [a.attemptedAt, a.responseStatus, a.error])).toEqual([
      [t0, 500, null],
      [t1, 200, null],
    ]);
  });

  it('gives up after exactly six attempts, spaced by the schedule and its jitter', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    receiver.answer(500);
    const jitter = [0, 0.5, 0.999, 0.25, 0.75];
    let draw = 0;
    const random = () => jitter[draw++]!;
    let now = new Date('2030-03-01T09:00:00.000Z');
    const { messageId } = await enqueue(companyId, { now });
    const times: Date[] = [];

    for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt += 1) {
      if (attempt > 1) {
        // A millisecond early, nothing is due.
        expect(await deliverDueWebhooks(db, { now: later(now, -1), random })).toMatchObject({ claimed: 0 });
      }
      const pass = await deliverDueWebhooks(db, { now, random });
      times.push(now);
      const delivery = await onlyDelivery(messageId);
      expect(delivery.attempts).toBe(attempt);
      if (attempt < WEBHOOK_MAX_ATTEMPTS) {
        expect(pass).toEqual({ claimed: 1, succeeded: 0, retrying: 1, failed: 0 });
        const base = WEBHOOK_RETRY_DELAYS_MS[attempt - 1]!;
        const expected = Math.round(base * (0.8 + 0.4 * jitter[attempt - 1]!));
        expect(delivery.status).toBe('pending');
        expect(delivery.nextAttemptAt.getTime() - now.getTime()).toBe(expected);
        now = delivery.nextAttemptAt;
      } else {
        expect(pass).toEqual({ claimed: 1, succeeded: 0, retrying: 0, failed: 1 });
        expect(delivery.status).toBe('failed');
      }
    }

    // The jitter was drawn once per retry, never for the final failure.
    expect(draw).toBe(5);
    const span = times.at(-1)!.getTime() - times[0]!.getTime();
    expect(span / 60_000).toBeGreaterThan(50);
    expect(span / 60_000).toBeLessThan(80);

    // Failed is final.
    expect(await deliverDueWebhooks(db, { now: later(now, 7 * 24 * 3_600_000) })).toMatchObject({ claimed: 0 });
    expect(receiver.hits).toHaveLength(6);
    expect(new Set(receiver.hits.map((hit) => hit.headers['webhook-id']))).toEqual(new Set([messageId]));
    const attempts = await attemptsOf((await onlyDelivery(messageId)).id);
    expect(attempts.map((a) => [a.attemptedAt, a.responseStatus])).toEqual(times.map((time) => [time, 500]));
  });

  it('records a hang as "timeout" and does not wait for the body of an answer that stalls', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    receiver.answer('hang');
    const { messageId } = await enqueue(companyId);

    const started = performance.now();
    expect(await deliverDueWebhooks(db, { timeoutMs: 300 })).toMatchObject({ retrying: 1 });
    expect(performance.now() - started).toBeLessThan(3_000);
    const delivery = await onlyDelivery(messageId);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ responseStatus: null, error: 'timeout' });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(250);

    // Headers in time, body never: the 200 counts, the stalled body is not waited for.
    receiver.answer('headers-then-hang');
    const { messageId: second } = await enqueue(companyId);
    const secondStarted = performance.now();
    await deliverDueWebhooks(db, { timeoutMs: 2_000, now: new Date() });
    expect(performance.now() - secondStarted).toBeLessThan(1_500);
    expect(await onlyDelivery(second)).toMatchObject({ status: 'succeeded' });
  });

  it('records a refused and a reset connection as short errors', async () => {
    const { companyId } = await createTestCompany(db);
    await addWebhookEndpoint(db, { companyId, url: await closedPortUrl() });
    const { messageId } = await enqueue(companyId);
    expect(await deliverDueWebhooks(db)).toMatchObject({ retrying: 1 });
    const [refused] = await attemptsOf((await onlyDelivery(messageId)).id);
    expect(refused).toMatchObject({ responseStatus: null, error: 'connection refused' });

    const { companyId: other, receiver } = await companyWithReceiver();
    receiver.answer('reset');
    const { messageId: resetMessage } = await enqueue(other);
    expect(await deliverDueWebhooks(db)).toMatchObject({ retrying: 1 });
    const [reset] = await attemptsOf((await onlyDelivery(resetMessage)).id);
    expect(reset).toMatchObject({ responseStatus: null, error: 'connection reset' });
  });

  it('counts a redirect as a failed attempt and does not follow it', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    receiver.answer(307);
    const { messageId } = await enqueue(companyId);
    expect(await deliverDueWebhooks(db)).toMatchObject({ retrying: 1 });
    const [attempt] = await attemptsOf((await onlyDelivery(messageId)).id);
    expect(attempt).toMatchObject({ responseStatus: 307, error: null });
    expect(receiver.hits).toHaveLength(1);
  });

  it('two concurrent passes never send the same delivery twice', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    const messageIds: string[] = [];
    for (let i = 0; i < 20; i += 1) messageIds.push((await enqueue(companyId)).messageId);

    const now = new Date();
    const passes = await Promise.all([
      deliverDueWebhooks(db, { now, limit: 7 }),
      deliverDueWebhooks(db, { now, limit: 7 }),
      deliverDueWebhooks(db, { now, limit: 7 }),
      deliverDueWebhooks(db, { now, limit: 7 }),
    ]);

    expect(passes.reduce((sum, pass) => sum + pass.claimed, 0)).toBe(20);
    expect(receiver.hits).toHaveLength(20);
    expect(new Set(receiver.hits.map((hit) => hit.headers['webhook-id']))).toEqual(new Set(messageIds));
    for (const messageId of messageIds) expect(await onlyDelivery(messageId)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('passes on two instances at once (on PostgreSQL, two pools) never send the same delivery twice', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    const messageIds: string[] = [];
    for (let i = 0; i < 40; i += 1) messageIds.push((await enqueue(companyId)).messageId);

    const now = new Date();
    const passes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => deliverDueWebhooks(i % 2 === 0 ? db : other.db, { now, limit: 7 })),
    );

    expect(passes.reduce((sum, pass) => sum + pass.claimed, 0)).toBe(40);
    expect(receiver.hits).toHaveLength(40);
    expect(new Set(receiver.hits.map((hit) => hit.headers['webhook-id']))).toEqual(new Set(messageIds));
  });

  it('leaves a claimed delivery alone until its claim expires', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    const now = new Date();
    const { messageId } = await enqueue(companyId, { now });
    const delivery = await onlyDelivery(messageId);
    // As if another worker had claimed it and then died mid-send.
    await db
      .update(webhookDeliveries)
      .set({ lockedUntil: later(now, 60_000) })
      .where(eq(webhookDeliveries.id, delivery.id));

    expect(await deliverDueWebhooks(db, { now })).toMatchObject({ claimed: 0 });
    expect(await deliverDueWebhooks(db, { now: later(now, 59_999) })).toMatchObject({ claimed: 0 });
    expect(receiver.hits).toHaveLength(0);
    expect(await deliverDueWebhooks(db, { now: later(now, 60_000) })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(receiver.hits).toHaveLength(1);
  });

  it("sends to every active endpoint of the event's company and to no other company's", async () => {
    const a = await companyWithReceiver();
    const b = await companyWithReceiver();
    const second = await startTestReceiver();
    receivers.push(second);
    const secondEndpoint = await addWebhookEndpoint(db, { companyId: a.companyId, url: `${second.url}?tenant=a` });
    second.setSecret(secondEndpoint.secret);

    const { messageId } = await enqueue(a.companyId);
    expect(await deliverDueWebhooks(db)).toMatchObject({ claimed: 2, succeeded: 2 });

    expect(a.receiver.hits).toHaveLength(1);
    expect(second.hits).toHaveLength(1);
    expect(second.hits[0]!.path).toBe('/hooks?tenant=a');
    // Each endpoint's signature is made with its own secret.
    expect([a.receiver.hits[0]!.verified, second.hits[0]!.verified]).toEqual([true, true]);
    expect(a.receiver.hits[0]!.headers['webhook-signature']).not.toBe(second.hits[0]!.headers['webhook-signature']);
    expect(b.receiver.hits).toHaveLength(0);
    expect(await deliveriesOf(messageId)).toHaveLength(2);
  });

  it('sends nothing to a disabled endpoint, including what was queued before it was disabled', async () => {
    const { companyId, receiver, endpoint } = await companyWithReceiver();
    const { messageId: queuedBefore } = await enqueue(companyId);
    expect(await disableWebhookEndpoint(db, { endpointId: endpoint.id })).toBe(true);
    expect(await disableWebhookEndpoint(db, { endpointId: endpoint.id })).toBe(false);
    const { messageId: queuedAfter } = await enqueue(companyId);

    expect(await deliverDueWebhooks(db)).toMatchObject({ claimed: 0 });
    expect(receiver.hits).toHaveLength(0);
    expect(await onlyDelivery(queuedBefore)).toMatchObject({ status: 'failed', attempts: 0 });
    expect(await deliveriesOf(queuedAfter)).toEqual([]);
  });
});

describe('serializeWebhookPayload', () => {
  it('puts the documented keys first and keeps any others', () => {
    expect(
      serializeWebhookPayload({ data: { status: 's', verificationId: 'v', extra: 1 }, timestamp: 't', type: 'x', more: [{ b: 1 }] }),
    ).toBe('{"type":"x","timestamp":"t","data":{"verificationId":"v","status":"s","extra":1},"more":[{"b":1}]}');
  });
});

describe('the delivery worker', () => {
  it('delivers promptly when kicked, long before its next tick, and starts only once', async () => {
    kickWebhookDelivery(); // no worker yet: a harmless no-op
    const { companyId, receiver } = await companyWithReceiver();
    const stop = startWebhookDelivery({ intervalMs: 60_000 });
    try {
      expect(startWebhookDelivery({ intervalMs: 10 })).toBe(stop);
      // Let the start-up pass go by, so only the kick can deliver what comes next.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { messageId } = await enqueue(companyId);
      const started = performance.now();
      for (let i = 0; i < 5; i += 1) kickWebhookDelivery();
      while (receiver.hits.length === 0 && performance.now() - started < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(receiver.hits).toHaveLength(1);
      expect(performance.now() - started).toBeLessThan(500);
      while ((await onlyDelivery(messageId)).status === 'pending' && performance.now() - started < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await onlyDelivery(messageId)).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(receiver.hits[0]!.verified).toBe(true);
    } finally {
      stop();
    }
    // Stopped: a new start gives a new worker.
    const again = startWebhookDelivery({ intervalMs: 60_000 });
    expect(again).not.toBe(stop);
    again();
  });

  it('two workers on two instances (on PostgreSQL, two pools) send each delivery of a shared queue exactly once', async () => {
    const { companyId, receiver } = await companyWithReceiver();
    const messageIds: string[] = [];
    for (let i = 0; i < 60; i += 1) messageIds.push((await enqueue(companyId)).messageId);

    const workers = [db, other.db].map((handle) => createWebhookDeliveryWorker({ db: async () => handle, intervalMs: 10, concurrency: 4 }));
    try {
      for (const worker of workers) worker.kick();
      await expect
        .poll(async () => (await db.select().from(webhookDeliveries)).filter((row) => row.status === 'succeeded').length, {
          timeout: 30_000,
          interval: 50,
        })
        .toBe(60);
    } finally {
      for (const worker of workers) worker.stop();
    }

    expect(receiver.hits).toHaveLength(60);
    expect(new Set(receiver.hits.map((hit) => hit.headers['webhook-id']))).toEqual(new Set(messageIds));
    expect(receiver.hits.every((hit) => hit.verified)).toBe(true);
    for (const messageId of messageIds) expect(await onlyDelivery(messageId)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(await db.select().from(webhookAttempts)).toHaveLength(60);
  });
});
