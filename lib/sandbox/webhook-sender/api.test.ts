// GET /v1/sandbox/webhooks through the real route handler: API key required, only the caller's
// own endpoints and events, every attempt listed, and never a secret.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET } from '@/app/(sandbox)/v1/sandbox/webhooks/route';
import type { SandboxDb } from '@/lib/sandbox/db';
import { createTestCompany, expectError, getRequest, useInMemorySandbox } from '@/test/support/sandbox';
import { WEBHOOK_LOG_LIMIT, type WebhookLog } from './api';
import { deliverDueWebhooks } from './delivery-pass';
import { addWebhookEndpoint, disableWebhookEndpoint } from './endpoints';
import { enqueueVerificationEvent } from './enqueue';
import { startTestReceiver, type TestReceiver } from './test-receiver';

const URL = 'http://localhost/v1/sandbox/webhooks';

let db: SandboxDb;
let receiver: TestReceiver;

beforeAll(async () => {
  db = await useInMemorySandbox();
  receiver = await startTestReceiver();
});

afterAll(async () => {
  await receiver.close();
});

async function read(apiKey: string): Promise<{ response: Response; text: string; body: WebhookLog }> {
  const response = await GET(getRequest(URL, apiKey), undefined);
  const text = await response.text();
  return { response, text, body: JSON.parse(text) as WebhookLog };
}

describe('GET /v1/sandbox/webhooks', () => {
  it('refuses a missing or unknown key with 403', async () => {
    await expectError(await GET(getRequest(URL), undefined), 403, /./);
    await expectError(await GET(getRequest(URL, `vd_sk_${'x'.repeat(43)}`), undefined), 403, /./);
  });

  it('answers 404 while the sandbox is off', async () => {
    const { apiKey } = await createTestCompany(db);
    process.env.SANDBOX = 'off';
    process.env.VERIFICATION_API_URL = 'https://verify.example.com';
    try {
      await expectError(await GET(getRequest(URL, apiKey), undefined), 404, 'Not found');
    } finally {
      process.env.SANDBOX = 'on';
      delete process.env.VERIFICATION_API_URL;
    }
  });

  it("lists the caller's endpoints and events with every attempt, newest first, without secrets", async () => {
    const mine = await createTestCompany(db, { name: 'Mine' });
    const theirs = await createTestCompany(db, { name: 'Theirs' });
    const active = await addWebhookEndpoint(db, { companyId: mine.companyId, url: receiver.url });
    const retired = await addWebhookEndpoint(db, { companyId: mine.companyId, url: 'https://old.example.com/hooks' });
    await disableWebhookEndpoint(db, { endpointId: retired.id });
    const foreign = await addWebhookEndpoint(db, { companyId: theirs.companyId, url: 'https://theirs.example.com/hooks' });

    const t0 = new Date();
    const verificationId = randomUUID();
    const { messageId: created } = await db.transaction((tx) =>
      enqueueVerificationEvent(tx, { companyId: mine.companyId, verificationId, type: 'verification.created', status: 'pending', now: t0 }),
    );
    const { messageId: completed } = await db.transaction((tx) =>
      enqueueVerificationEvent(tx, {
        companyId: mine.companyId,
        verificationId,
        type: 'verification.completed',
        status: 'completed',
        now: new Date(t0.getTime() + 1_000),
      }),
    );
    await db.transaction((tx) =>
      enqueueVerificationEvent(tx, {
        companyId: theirs.companyId,
        verificationId: randomUUID(),
        type: 'verification.created',
        status: 'pending',
        now: t0,
      }),
    );
    // The first event fails once and then goes through; the second fails once and waits.
    receiver.answer(503, 503, 200);
    await deliverDueWebhooks(db, { now: t0, random: () => 0.5 });
    await deliverDueWebhooks(db, { now: new Date(t0.getTime() + 1_000), random: () => 0.5 });
    await deliverDueWebhooks(db, { now: new Date(t0.getTime() + 30_000), random: () => 0.5 });

    const { response, text, body } = await read(mine.apiKey);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(text).not.toContain('whsec_');
    expect(text).not.toContain(foreign.id);
    expect(text).not.toContain('theirs.example.com');

    expect(body.endpoints).toEqual([
      { id: active.id, url: receiver.url, createdAt: expect.any(String), disabledAt: null },
      { id: retired.id, url: 'https://old.example.com/hooks', createdAt: expect.any(String), disabledAt: expect.any(String) },
    ]);
    expect(body.messages.map((message) => message.id)).toEqual([completed, created]);
    const [second, first] = body.messages;
    expect(first).toEqual({
      id: created,
      type: 'verification.created',
      verificationId,
      status: 'pending',
      createdAt: t0.toISOString(),
      deliveries: [
        {
          endpointId: active.id,
          url: receiver.url,
          status: 'succeeded',
          attemptCount: 2,
          nextAttemptAt: null,
          attempts: [
            { attemptedAt: t0.toISOString(), responseStatus: 503, error: null, durationMs: expect.any(Number) },
            {
              attemptedAt: new Date(t0.getTime() + 30_000).toISOString(),
              responseStatus: 200,
              error: null,
              durationMs: expect.any(Number),
            },
          ],
        },
      ],
    });
    expect(second!.deliveries).toEqual([
      {
        endpointId: active.id,
        url: receiver.url,
        status: 'pending',
        attemptCount: 1,
        nextAttemptAt: new Date(t0.getTime() + 31_000).toISOString(),
        attempts: [
          { attemptedAt: new Date(t0.getTime() + 1_000).toISOString(), responseStatus: 503, error: null, durationMs: expect.any(Number) },
        ],
      },
    ]);
  });

  it(`shows at most the latest ${WEBHOOK_LOG_LIMIT} events`, async () => {
    const { companyId, apiKey } = await createTestCompany(db);
    const base = Date.now();
    await db.transaction(async (tx) => {
      for (let i = 0; i < WEBHOOK_LOG_LIMIT + 5; i += 1) {
        await enqueueVerificationEvent(tx, {
          companyId,
          verificationId: randomUUID(),
          type: 'verification.expired',
          status: 'expired',
          now: new Date(base + i * 1_000),
        });
      }
    });
    const { body } = await read(apiKey);
    expect(body.messages).toHaveLength(WEBHOOK_LOG_LIMIT);
    expect(body.messages[0]!.createdAt).toBe(new Date(base + (WEBHOOK_LOG_LIMIT + 4) * 1_000).toISOString());
    expect(body.messages.every((message) => message.deliveries.length === 0)).toBe(true);
  });
});
