// The webhook log is purged after the company's audit retention, except what is still being delivered.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxDb } from '@/lib/sandbox/db';
import { webhookAttempts, webhookDeliveries, webhookMessages } from '@/lib/sandbox/schema';
import { createTestCompany, useInMemorySandbox } from '@/test/support/sandbox';
import { deliverDueWebhooks } from './delivery-pass';
import { addWebhookEndpoint } from './endpoints';
import { enqueueVerificationEvent } from './enqueue';
import { purgeWebhookLog } from './retention';
import { startTestReceiver } from './test-receiver';

let db: SandboxDb;

beforeAll(async () => {
  db = await useInMemorySandbox();
});

describe('purgeWebhookLog', () => {
  it("deletes messages (with deliveries and attempts) past their company's audit retention, unless still pending", async () => {
    const receiver = await startTestReceiver();
    try {
      const short = await createTestCompany(db, { auditLogRetentionSeconds: 3_600 });
      const long = await createTestCompany(db, { auditLogRetentionSeconds: 86_400 });
      await addWebhookEndpoint(db, { companyId: short.companyId, url: receiver.url });
      const t0 = new Date('2030-05-01T00:00:00Z');
      const enqueue = (companyId: string) =>
        db
          .transaction((tx) =>
            enqueueVerificationEvent(tx, {
              companyId,
              verificationId: randomUUID(),
              type: 'verification.created',
              status: 'pending',
              now: t0,
            }),
          )
          .then((event) => event.messageId);
      const delivered = await enqueue(short.companyId);
      const kept = await enqueue(long.companyId);
      receiver.answer(200);
      await deliverDueWebhooks(db, { now: t0 });
      const stillPending = await enqueue(short.companyId);
      await db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date('2030-06-01T00:00:00Z') })
        .where(eq(webhookDeliveries.messageId, stillPending));
      const [deliveredRow] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.messageId, delivered));
      expect(await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveredRow!.id))).toHaveLength(1);

      expect(await purgeWebhookLog(db, new Date(t0.getTime() + 3_599_000))).toBe(0);
      expect(await purgeWebhookLog(db, new Date(t0.getTime() + 3_600_000))).toBe(1);

      const left = (await db.select({ id: webhookMessages.id }).from(webhookMessages)).map((row) => row.id);
      expect(left).toEqual(expect.arrayContaining([kept, stillPending]));
      expect(left).not.toContain(delivered);
      expect(await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveredRow!.id))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
