// Retention of the webhook log. Messages, deliveries and attempts are the sandbox's record of
// what it told whom and when, so they are kept as long as the company's API audit log and then
// deleted like it; deliveries and attempts go with their message by cascade.
import 'server-only';
import { and, eq, notExists, sql } from 'drizzle-orm';
import { deleteBatch, purgeInBatches } from '@/lib/platform/batched-purge';
import type { SandboxDb } from '@/lib/sandbox/db';
import { companies, webhookDeliveries, webhookMessages } from '@/lib/sandbox/schema';

/**
 * Deletes messages older than their company's audit retention, except those still being
 * delivered (a retry must not lose its message, however short the retention). Returns how many.
 */
export async function purgeWebhookLog(db: SandboxDb, now: Date): Promise<number> {
  const where = and(
    // One statement for every company: the cut-off differs per company, so Postgres computes it.
    sql`${webhookMessages.createdAt} <= ${now.toISOString()}::timestamptz - (
          select ${companies.auditLogRetentionSeconds} from ${companies} where ${companies.id} = ${webhookMessages.companyId}
        ) * interval '1 second'`,
    notExists(
      db
        .select({ one: sql`1` })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.messageId, webhookMessages.id), eq(webhookDeliveries.status, 'pending'))),
    ),
  )!;
  // A batch per statement (lib/platform/batched-purge.ts): deliveries keep being written meanwhile.
  return purgeInBatches((limit) => deleteBatch(db, { table: webhookMessages, key: webhookMessages.id, where, limit }));
}
