// Retention of webhook receipts. A receipt (one row per `webhook-id`) exists only so that a
// redelivery of the same message is recognised and not applied twice; once the sender can no
// longer retry that message, the row guards nothing and goes.
import 'server-only';
import { lt } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { webhookReceipts } from '@/lib/db/schema';
import { deleteBatch, type PurgeBatchOptions, purgeInBatches } from '@/lib/platform/batched-purge';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a receipt is kept after it was taken: 7 days. The embedded sandbox's sender gives up
 * after about 66 minutes (its retry delays sum to 65.5 min, at most ~79 min with their ±20%
 * jitter, plus a 10 s timeout per attempt; a test checks that this stays far below the value
 * here). The real service's retry window is not stated in the contract; Standard Webhooks
 * senders commonly retry for a day or more, and an operator may replay a message by hand from
 * the sender's dashboard. A week covers those with a wide margin, and costs one short row per
 * delivery.
 */
export const WEBHOOK_RECEIPTS_KEPT_MS = 7 * DAY_MS;

/** Deletes receipts taken more than WEBHOOK_RECEIPTS_KEPT_MS before `now`, a batch per statement; returns how many went. */
export async function purgeOldWebhookReceipts(now: Date = new Date(), options?: PurgeBatchOptions): Promise<number> {
  const db = await getDb();
  const where = lt(webhookReceipts.receivedAt, new Date(now.getTime() - WEBHOOK_RECEIPTS_KEPT_MS));
  return purgeInBatches((limit) => deleteBatch(db, { table: webhookReceipts, key: webhookReceipts.webhookId, where, limit }), options);
}
