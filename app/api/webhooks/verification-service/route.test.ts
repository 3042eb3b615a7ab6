// The webhook receiver end to end: the real route handler called with a Request, a real
// in-memory PGlite database, and a real local HTTP server standing in for the service that the
// receiver re-reads records from.
import type http from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, verificationRequests, webhookReceipts } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { currentEventId, getLiveBus, type LiveEvent, subscribe } from '@/lib/live';
import { closeDatabases } from '@/lib/platform/database';
import { type FakeUpstream, hang, startFakeUpstream } from '@/lib/verification-service/fake-upstream';
import { MAX_WEBHOOK_BODY_BYTES } from '@/lib/webhook-receiver/verify';
import { until } from '@/test/support/live';
import { type CapturedLogs, captureLogs } from '@/test/support/logs';
import { delivery, event, nowSeconds, SECRET_A, SECRET_B, SECRET_OTHER, sign, toRequest } from '@/test/support/webhook-receiver';
import { POST } from './route';

// ── The stand-in service: records by id, or a programmed failure ─────────────────────────────

type Answer = { record: Record<string, unknown> } | { status: 404 | 503 } | 'hang';
const answers = new Map<string, Answer>();
let delayMs = 0;

function record(status: string, extra: Record<string, unknown> = {}) {
  return {
    inputted_name: 'Alice Martin',
    status,
    purpose: 'legal_obligations',
    access_expires_at: '2030-01-08T00:00:00.000Z',
    identified_name: status === 'completed' ? 'ALICE MARTIN' : null,
    identified_date: status === 'completed' ? '2030-01-02T10:00:00.000Z' : null,
    verification_method: status === 'completed' ? 'passport' : null,
    failed_reason: status === 'failed' ? 'document_unreadable' : null,
    kept_until: '2030-02-01T00:00:00.000Z',
    ...extra,
  };
}

function service(req: http.IncomingMessage, res: http.ServerResponse) {
  const id = decodeURIComponent((req.url ?? '').replace(/^\/v1\/verifications\//, ''));
  const answer = answers.get(id) ?? { status: 404 };
  if (answer === 'hang') return hang(req, res);
  setTimeout(() => {
    if ('record' in answer) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.record));
    } else if (answer.status === 404) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: 'Verification not found' }));
    } else {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end('<html>Service Unavailable</html>');
    }
  }, delayMs);
}

let upstream: FakeUpstream;
const reads = (id?: string) =>
  upstream.requests.filter((r) => r.method === 'GET' && (id === undefined || r.url === `/v1/verifications/${encodeURIComponent(id)}`))
    .length;

// ── Database helpers ─────────────────────────────────────────────────────────────────────────

async function register(verificationId: string, status = 'pending') {
  const db = await getDb();
  await db.insert(verificationRequests).values({
    verificationId,
    name: 'Alice Martin',
    purpose: 'legal_obligations',
    language: 'en',
    shareableLink: true,
    emailNotification: false,
    smsNotification: false,
    link: 'https://svc.example/v/abc',
    status,
  });
}

async function row(verificationId: string) {
  const db = await getDb();
  const [found] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, verificationId));
  return found;
}

async function receipts() {
  return (await getDb()).select().from(webhookReceipts);
}

async function audits(verificationId: string) {
  const db = await getDb();
  return db.select().from(auditEntries).where(eq(auditEntries.targetId, verificationId));
}

let published: LiveEvent[] = [];

/** Waits until the live feed has handed out everything in the log, so `published` is complete. */
async function liveSettled() {
  const newest = await currentEventId();
  await until(() => getLiveBus().deliveredUpTo() >= newest, 'the live feed to catch up');
}
let unsubscribe: () => void;
let logs: CapturedLogs;

async function send(d: { headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> }) {
  const response = await POST(toRequest(d));
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers };
}

let counter = 0;
const newId = (label: string) => {
  counter += 1;
  return `${label}-${counter}`;
};

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.program(service);
  process.env.DATA_DIR = 'memory://';
  process.env.VERIFICATION_API_URL = upstream.baseUrl;
  process.env.VERIFICATION_API_KEY = 'test-key';
  process.env.VERIFICATION_API_TIMEOUT_MS = '300';
  // Rotation: both secrets configured, as during a key change.
  process.env.WEBHOOK_SECRET = `${SECRET_A}, ${SECRET_B}`;
  resetEnv();
  await getDb();
  unsubscribe = await subscribe((e) => published.push(e));
});

beforeEach(async () => {
  // An earlier test's events must not land in this test's list.
  await liveSettled();
  upstream.requests.length = 0;
  answers.clear();
  delayMs = 0;
  published = [];
  logs = captureLogs();
});

afterEach(() => {
  vi.restoreAllMocks();
  logs.restore();
  // Nothing secret or personal is ever logged, whatever happened in the test; nor is a payload
  // (as a string its keys would appear quoted, as an object under `data`).
  for (const line of logs.lines) {
    for (const secret of [SECRET_A, SECRET_B, SECRET_A.slice(6), SECRET_B.slice(6)]) expect(line).not.toContain(secret);
    expect(line).not.toMatch(/Alice|ALICE|\\"verificationId\\"|"data":/);
  }
});

afterAll(async () => {
  unsubscribe();
  await upstream.close();
  await closeDatabases();
});

describe('a genuine delivery', () => {
  it('re-reads the record, updates the register row, audits and publishes; answers 200', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const d = delivery(event('verification.completed', id, 'completed'));

    const response = await send(d);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'processed' });
    expect(reads(id)).toBe(1);
    expect(await row(id)).toMatchObject({
      status: 'completed',
      identifiedName: 'ALICE MARTIN',
      keptUntil: new Date('2030-02-01T00:00:00.000Z'),
      accessExpiresAt: new Date('2030-01-08T00:00:00.000Z'),
    });
    expect((await row(id))!.refreshedAt).toBeInstanceOf(Date);
    expect(await receipts()).toContainEqual(
      expect.objectContaining({ webhookId: d.id, eventType: 'verification.completed', verificationId: id }),
    );
    const trail = await audits(id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      actorId: null,
      action: 'verification.status_changed',
      targetType: 'verification',
      details: { status: 'completed', previous: 'pending' },
    });
    await liveSettled();
    expect(published).toEqual([expect.objectContaining({ verificationId: id, status: 'completed' })]);
  });

  it('an event naming a registered UUID in capitals updates that one request, under its lowercase id', async () => {
    const id = crypto.randomUUID();
    await register(id);
    answers.set(id, { record: record('completed') });

    const response = await send(delivery(event('verification.completed', id.toUpperCase(), 'completed')));

    expect(response.status).toBe(200);
    expect(reads(id)).toBe(1);
    expect((await row(id))!.status).toBe('completed');
    expect(await audits(id)).toHaveLength(1);
    expect(await audits(id.toUpperCase())).toHaveLength(0);
    await liveSettled();
    expect(published).toEqual([expect.objectContaining({ verificationId: id, status: 'completed' })]);
  });

  it('trusts the record, not the payload: a payload saying "completed" for a failed record stores failed', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('failed') });
    expect((await send(delivery(event('verification.completed', id, 'completed')))).status).toBe(200);
    expect((await row(id))!.status).toBe('failed');
    await liveSettled();
    expect(published.at(-1)).toMatchObject({ verificationId: id, status: 'failed' });
  });

  it('accepts a delivery signed with the second configured secret (rotation)', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('expired') });
    expect((await send(delivery(event('verification.expired', id, 'expired'), { secret: SECRET_B }))).status).toBe(200);
    expect((await row(id))!.status).toBe('expired');
  });

  it('accepts a signature header carrying several signatures, one of them ours', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const d = delivery(event('verification.completed', id, 'completed'));
    const foreign = sign(SECRET_OTHER, d.id, d.timestamp, d.body);
    const headers = { ...d.headers, 'webhook-signature': `${foreign} ${d.headers['webhook-signature']}` };
    expect((await send({ headers, body: d.body })).status).toBe(200);
    expect((await row(id))!.status).toBe('completed');
  });

  it('does not create a register row for an id the dashboard did not register', async () => {
    const id = newId('unregistered');
    answers.set(id, { record: record('completed') });
    expect((await send(delivery(event('verification.completed', id, 'completed')))).status).toBe(200);
    expect(await row(id)).toBeUndefined();
    // Someone may have it open after a lookup: the browser is still told.
    await liveSettled();
    expect(published).toEqual([expect.objectContaining({ verificationId: id, status: 'completed' })]);
  });
});

describe('refused deliveries change nothing', () => {
  const cases: Array<
    [string, (d: ReturnType<typeof delivery>) => { headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> }]
  > = [
    ['no webhook-id', (d) => ({ headers: omit(d.headers, 'webhook-id'), body: d.body })],
    ['no webhook-timestamp', (d) => ({ headers: omit(d.headers, 'webhook-timestamp'), body: d.body })],
    ['no webhook-signature', (d) => ({ headers: omit(d.headers, 'webhook-signature'), body: d.body })],
    ['a non-numeric timestamp', (d) => ({ headers: { ...d.headers, 'webhook-timestamp': 'yesterday' }, body: d.body })],
    ['a timestamp with trailing junk', (d) => ({ headers: { ...d.headers, 'webhook-timestamp': `${d.timestamp}abc` }, body: d.body })],
    ['one changed byte in the body', (d) => ({ headers: d.headers, body: d.body.replace('"status":"completed"', '"status":"completeD"') })],
    [
      'a signature from an unknown secret',
      (d) => ({ headers: { ...d.headers, 'webhook-signature': sign(SECRET_OTHER, d.id, d.timestamp, d.body) }, body: d.body }),
    ],
  ];

  function omit(headers: Record<string, string>, name: string) {
    return Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
  }

  it.each(cases)('%s → 4xx, no receipt, register unchanged, no upstream call, nothing published', async (_label, tamper) => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const before = await receipts();
    const d = delivery(event('verification.completed', id, 'completed'));

    const response = await send(tamper(d));

    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(typeof response.body.error).toBe('string');
    expect(await receipts()).toEqual(before);
    expect((await row(id))!.status).toBe('pending');
    expect(await audits(id)).toEqual([]);
    expect(reads()).toBe(0);
    await liveSettled();
    expect(published).toEqual([]);
  });

  it.each([
    ['stale', -360],
    ['future', 360],
  ])('a %s timestamp (correctly signed) → 401, no state change', async (_label, offset) => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const before = await receipts();
    const d = delivery(event('verification.completed', id, 'completed'), { timestamp: nowSeconds() + offset });
    const response = await send(d);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: 'Invalid webhook signature.' });
    expect(await receipts()).toEqual(before);
    expect((await row(id))!.status).toBe('pending');
    expect(reads()).toBe(0);
  });

  it('a body over 64 KB → 413, no state change', async () => {
    const id = newId('v');
    await register(id);
    const body = JSON.stringify({ ...event('verification.completed', id), pad: 'x'.repeat(MAX_WEBHOOK_BODY_BYTES) });
    const response = await send(delivery(null, { body }));
    expect(response.status).toBe(413);
    expect(reads()).toBe(0);
    expect((await row(id))!.status).toBe('pending');
  });

  it('a signed body that is not JSON, or has no id → 400, no receipt', async () => {
    const before = await receipts();
    for (const body of [
      'not json',
      '{"type":"verification.completed"}',
      '{"type":"verification.completed","data":{"verificationId":"a/b"}}',
    ]) {
      const response = await send(delivery(null, { body }));
      expect(response.status, body).toBe(400);
    }
    expect(await receipts()).toEqual(before);
    expect(reads()).toBe(0);
  });
});

describe('exactly once per webhook-id', () => {
  it('processes the same delivery sent twice once; the second answer is 200 duplicate', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const d = delivery(event('verification.completed', id, 'completed'));

    const first = await send(d);
    const second = await send(d);

    expect(first).toMatchObject({ status: 200, body: { status: 'processed' } });
    expect(second).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect(reads(id)).toBe(1);
    expect(await audits(id)).toHaveLength(1);
    await liveSettled();
    expect(published).toHaveLength(1);
  });

  it('processes 10 concurrent copies once', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    delayMs = 100; // the copies overlap the re-read
    const d = delivery(event('verification.completed', id, 'completed'));

    const responses = await Promise.all(Array.from({ length: 10 }, () => send(d)));

    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(responses.filter((r) => r.body.status === 'processed')).toHaveLength(1);
    expect(responses.filter((r) => r.body.status === 'duplicate')).toHaveLength(9);
    expect(reads(id)).toBe(1);
    expect((await receipts()).filter((r) => r.webhookId === d.id)).toHaveLength(1);
    expect(await audits(id)).toHaveLength(1);
    await liveSettled();
    expect(published).toHaveLength(1);
  });

  it('treats an id already in the receipts (another instance, an earlier run) as a duplicate without re-reading', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const d = delivery(event('verification.completed', id, 'completed'));
    await (await getDb()).insert(webhookReceipts).values({ webhookId: d.id, eventType: 'verification.completed', verificationId: id });

    expect(await send(d)).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect(reads()).toBe(0);
    expect((await row(id))!.status).toBe('pending');
  });

  it('processes different deliveries for the same record each once', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('pending') });
    expect((await send(delivery(event('verification.created', id)))).body.status).toBe('processed');
    answers.set(id, { record: record('completed') });
    expect((await send(delivery(event('verification.completed', id, 'completed')))).body.status).toBe('processed');
    expect(reads(id)).toBe(2);
    expect((await row(id))!.status).toBe('completed');
  });
});

describe('never backwards', () => {
  it('a late "created" after "completed" leaves the register completed (the service says completed)', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const created = delivery(event('verification.created', id, 'pending'));
    const completed = delivery(event('verification.completed', id, 'completed'));

    expect((await send(completed)).status).toBe(200);
    expect((await send(created)).status).toBe(200);

    expect(await row(id)).toMatchObject({ status: 'completed', identifiedName: 'ALICE MARTIN' });
    expect(await audits(id)).toHaveLength(1);
  });

  it('keeps completed even when the service wrongly answers pending to the late event', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    expect((await send(delivery(event('verification.completed', id, 'completed')))).status).toBe(200);

    answers.set(id, { record: record('pending') });
    const late = await send(delivery(event('verification.created', id, 'pending')));

    expect(late.status).toBe(200);
    expect(await row(id)).toMatchObject({ status: 'completed', identifiedName: 'ALICE MARTIN' });
    // Browsers are told what the register holds, not the confused answer.
    await liveSettled();
    expect(published.at(-1)).toMatchObject({ verificationId: id, status: 'completed' });
  });

  it('keeps the first terminal status: a finished verification does not turn into another', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('failed') });
    await send(delivery(event('verification.failed', id, 'failed')));
    answers.set(id, { record: record('expired') });
    await send(delivery(event('verification.expired', id, 'expired')));
    expect((await row(id))!.status).toBe('failed');
  });
});

describe('failures make the sender retry', () => {
  it.each([
    ['503 from the service', { status: 503 } as Answer],
    ['a hang (timeout)', 'hang' as Answer],
  ])('%s → 503, the receipt is released, and the retry of the same id is processed', async (_label, failure) => {
    const id = newId('v');
    await register(id);
    answers.set(id, failure);
    const d = delivery(event('verification.completed', id, 'completed'));

    const failed = await send(d);
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ error: 'The event could not be processed now; retry later.' });
    expect((await receipts()).some((r) => r.webhookId === d.id)).toBe(false);
    expect((await row(id))!.status).toBe('pending');
    expect(await audits(id)).toEqual([]);
    await liveSettled();
    expect(published).toEqual([]);

    answers.set(id, { record: record('completed') });
    const retried = await send(d);
    expect(retried).toMatchObject({ status: 200, body: { status: 'processed' } });
    expect((await row(id))!.status).toBe('completed');
  });

  it('a database failure while applying → 500, nothing half-written, the receipt released, the retry processed', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const d = delivery(event('verification.completed', id, 'completed'));
    const db = await getDb();
    // A real failure inside the transaction: the audit insert finds no table.
    await db.execute(sql`ALTER TABLE audit_entries RENAME TO audit_entries_away`);
    try {
      const failed = await send(d);
      expect(failed.status).toBe(500);
      expect((await receipts()).some((r) => r.webhookId === d.id)).toBe(false);
      // The status update and its audit entry went together: the row is unchanged.
      expect((await row(id))!.status).toBe('pending');
      await liveSettled();
      expect(published).toEqual([]);
    } finally {
      await db.execute(sql`ALTER TABLE audit_entries_away RENAME TO audit_entries`);
    }
    expect(await send(d)).toMatchObject({ status: 200, body: { status: 'processed' } });
    expect((await row(id))!.status).toBe('completed');
  });

  it('concurrent copies of a delivery that fails all fail (none is acknowledged as a duplicate)', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { status: 503 });
    const d = delivery(event('verification.completed', id, 'completed'));
    const responses = await Promise.all(Array.from({ length: 5 }, () => send(d)));
    expect(responses.map((r) => r.status)).toEqual(Array(5).fill(503));
    expect((await receipts()).some((r) => r.webhookId === d.id)).toBe(false);
  });
});

describe('purged records', () => {
  it('a GET answering 404 deletes the register row; a later event does not bring it back', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { status: 404 });

    expect((await send(delivery(event('verification.expired', id, 'expired')))).status).toBe(200);
    expect(await row(id)).toBeUndefined();
    expect(await audits(id)).toEqual([
      expect.objectContaining({ action: 'verification.removed', actorId: null, details: { reason: 'purged' } }),
    ]);
    await liveSettled();
    expect(published.at(-1)).toMatchObject({ verificationId: id, status: 'purged' });

    // A late (or replayed-with-a-new-id) event, even with the service answering a record again.
    answers.set(id, { record: record('completed') });
    expect((await send(delivery(event('verification.completed', id, 'completed')))).status).toBe(200);
    expect(await row(id)).toBeUndefined();
  });

  // The notice is signed, but its word alone is not the truth: the record is re-read like any other.
  it('a signed verification.purged notice for a record the service still has leaves the row and its status', async () => {
    const id = newId('v');
    await register(id, 'completed');
    answers.set(id, { record: record('completed') });

    expect((await send(delivery(event('verification.purged', id, 'purged')))).body).toEqual({ status: 'processed' });
    expect(reads(id)).toBe(1);
    expect((await row(id))?.status).toBe('completed');
    expect((await audits(id)).map((a) => a.action)).not.toContain('verification.removed');
    await liveSettled();
    expect(published.at(-1)).toMatchObject({ verificationId: id, status: 'completed' });
  });

  it('a verification.purged notice removes the row once the service answers 404; later events do not re-create it', async () => {
    const id = newId('v');
    await register(id, 'completed');
    answers.set(id, { status: 404 });
    expect((await send(delivery(event('verification.purged', id, 'purged')))).body).toEqual({ status: 'processed' });
    expect(reads(id)).toBe(1);
    expect(await row(id)).toBeUndefined();
    expect(await audits(id)).toEqual([
      expect.objectContaining({ action: 'verification.removed', actorId: null, details: { reason: 'purged' } }),
    ]);

    expect((await send(delivery(event('verification.completed', id, 'completed')))).status).toBe(200);
    expect(await row(id)).toBeUndefined();
  });

  it.each([
    ['503 from the service', { status: 503 } as Answer],
    ['a hang (timeout)', 'hang' as Answer],
  ])('a verification.purged notice whose re-read meets %s → 503, the row stays, the retry is processed', async (_label, failure) => {
    const id = newId('v');
    await register(id, 'completed');
    answers.set(id, failure);
    const d = delivery(event('verification.purged', id, 'purged'));

    expect((await send(d)).status).toBe(503);
    expect((await row(id))?.status).toBe('completed');
    expect((await receipts()).some((r) => r.webhookId === d.id)).toBe(false);
    expect(await audits(id)).toEqual([]);

    answers.set(id, { status: 404 });
    expect(await send(d)).toMatchObject({ status: 200, body: { status: 'processed' } });
    expect(await row(id)).toBeUndefined();
  });
});

describe('forward compatibility', () => {
  it('acknowledges an unknown event type with 2xx and does nothing', async () => {
    const id = newId('v');
    await register(id);
    const before = await receipts();
    const response = await send(delivery({ type: 'verification.reviewed', data: { something: 'else' } }));
    expect(response).toMatchObject({ status: 200, body: { status: 'ignored' } });
    expect(await receipts()).toEqual(before);
    expect(reads()).toBe(0);
    expect((await row(id))!.status).toBe('pending');
    await liveSettled();
    expect(published).toEqual([]);
  });

  it('ignores unknown fields in a known event', async () => {
    const id = newId('v');
    await register(id);
    answers.set(id, { record: record('completed') });
    const body = { ...event('verification.completed', id, 'completed'), version: 2, data: { verificationId: id, extra: true } };
    expect((await send(delivery(body))).body).toEqual({ status: 'processed' });
  });
});

describe('configuration', () => {
  it('answers 503 (so the sender retries later) when WEBHOOK_SECRET is not set', async () => {
    const saved = process.env.WEBHOOK_SECRET;
    delete process.env.WEBHOOK_SECRET;
    resetEnv();
    try {
      const id = newId('v');
      await register(id);
      const response = await send(delivery(event('verification.completed', id, 'completed')));
      expect(response.status).toBe(503);
      expect(reads()).toBe(0);
    } finally {
      process.env.WEBHOOK_SECRET = saved;
      resetEnv();
    }
  });

  it('marks every answer no-store', async () => {
    const response = await send(delivery({ type: 'something.new' }));
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});
