// Webhook receipts are purged once no redelivery can arrive, against a real (in-memory) PGlite:
// old receipts go, recent ones stay and still stop a redelivery of their message.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { webhookReceipts } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { runDashboardRetention } from '@/lib/jobs/retention-jobs';
import { closeDatabases } from '@/lib/platform/database';
import { event } from '@/test/support/webhook-receiver';
import { processWebhook } from './process';
import { purgeOldWebhookReceipts, WEBHOOK_RECEIPTS_KEPT_MS } from './receipt-retention';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date('2030-06-01T12:00:00.000Z');

async function addReceipt(webhookId: string, receivedAt: Date) {
  const db = await getDb();
  await db.insert(webhookReceipts).values({ webhookId, eventType: 'verification.purged', verificationId: `v-${webhookId}`, receivedAt });
}

async function receiptIds(): Promise<string[]> {
  const db = await getDb();
  return (await db.select({ id: webhookReceipts.webhookId }).from(webhookReceipts)).map((r) => r.id).sort();
}

beforeAll(() => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(webhookReceipts);
});

afterAll(async () => {
  await closeDatabases();
});

describe('purgeOldWebhookReceipts', () => {
  it('keeps receipts for a week: older ones go, newer ones stay, and it returns the count', async () => {
    await addReceipt('msg_long_ago', new Date(NOW.getTime() - 30 * DAY_MS));
    await addReceipt('msg_8_days', new Date(NOW.getTime() - 8 * DAY_MS));
    await addReceipt('msg_just_over', new Date(NOW.getTime() - WEBHOOK_RECEIPTS_KEPT_MS - 1));
    await addReceipt('msg_exactly_a_week', new Date(NOW.getTime() - WEBHOOK_RECEIPTS_KEPT_MS));
    await addReceipt('msg_6_days', new Date(NOW.getTime() - 6 * DAY_MS));
    await addReceipt('msg_an_hour', new Date(NOW.getTime() - 60 * 60 * 1000));

    expect(await purgeOldWebhookReceipts(NOW)).toBe(3);
    expect(await receiptIds()).toEqual(['msg_6_days', 'msg_an_hour', 'msg_exactly_a_week']);
    // Nothing more to do on a second run.
    expect(await purgeOldWebhookReceipts(NOW)).toBe(0);
  });

  it('outlasts every retry a sender can still make, with days to spare', () => {
    // The sandbox's sender gives up within 2 hours at the slowest (its own test,
    // lib/sandbox/webhook-sender/delivery.test.ts, holds it to that); a week leaves six days over.
    expect(WEBHOOK_RECEIPTS_KEPT_MS).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(WEBHOOK_RECEIPTS_KEPT_MS).toBeGreaterThan(2 * 60 * 60 * 1000 + 6 * DAY_MS);
  });
});

describe('the hourly retention run', () => {
  it('purges old receipts, and a redelivery of a message still kept is recognised as a duplicate', async () => {
    const now = Date.now();
    await addReceipt('msg_old', new Date(now - 8 * DAY_MS));
    await addReceipt('msg_recent', new Date(now - 2 * DAY_MS));

    const result = await runDashboardRetention();
    expect(result.webhookReceipts).toBe(1);
    expect(await receiptIds()).toEqual(['msg_recent']);

    // The sender delivers the recent message again: still a duplicate, nothing applied twice.
    const again = await processWebhook('msg_recent', JSON.stringify(event('verification.purged', 'v-msg_recent')));
    expect(again).toEqual({ result: 'duplicate' });
    expect(await receiptIds()).toEqual(['msg_recent']);
  });
});
