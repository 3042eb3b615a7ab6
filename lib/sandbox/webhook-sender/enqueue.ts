// Queues a webhook event for every active endpoint of a company, in the caller's transaction:
// the event exists exactly when the change it reports was committed. Delivery is the worker's
// job (deliver.ts); this only writes the durable queue.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { rowsOf } from '@/lib/platform/database';
import type { SandboxDb, SandboxTx } from '@/lib/sandbox/db';
import { webhookDeliveries, webhookEndpoints, webhookMessages } from '@/lib/sandbox/schema';

export const VERIFICATION_EVENT_TYPES = [
  'verification.created',
  'verification.completed',
  'verification.failed',
  'verification.expired',
  'verification.purged',
] as const;

export type VerificationEventType = (typeof VERIFICATION_EVENT_TYPES)[number];

/** Thin events: "something changed for id X"; receivers re-read the record (contract §6). */
export type VerificationEventPayload = {
  type: VerificationEventType;
  timestamp: string;
  data: { verificationId: string; status: string };
};

/** The queued event, and how many deliveries it got (0 when the company has no active endpoint). */
export type EnqueuedEvent = { messageId: string; deliveries: number };

export type VerificationEvent = { companyId: string; verificationId: string; type: VerificationEventType; status: string; now?: Date };

/**
 * The event's two inserts, not yet run, for one data-modifying WITH: the message, and a delivery
 * for each active endpoint of the company, chosen inside the database (`returning id`), rather
 * than an insert, a select and another insert. A creation embeds them in its own statement.
 */
export function verificationEventInserts(
  db: SandboxDb | SandboxTx,
  event: VerificationEvent,
): { messageId: string; message: SQL; deliveries: SQL } {
  const now = event.now ?? new Date();
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const payload: VerificationEventPayload = {
    type: event.type,
    timestamp: now.toISOString(),
    data: { verificationId: event.verificationId, status: event.status },
  };
  const message = db
    .insert(webhookMessages)
    .values({ id: messageId, companyId: event.companyId, type: event.type, payload, createdAt: now })
    .getSQL();
  const at = sql`${now.toISOString()}::timestamptz`;
  const column = (name: string) => sql.identifier(name);
  const deliveries = sql`
    insert into ${webhookDeliveries}
      (${column(webhookDeliveries.id.name)}, ${column(webhookDeliveries.messageId.name)}, ${column(webhookDeliveries.endpointId.name)},
       ${column(webhookDeliveries.nextAttemptAt.name)}, ${column(webhookDeliveries.createdAt.name)}, ${column(webhookDeliveries.updatedAt.name)})
    select gen_random_uuid(), ${messageId}, ${webhookEndpoints.id}, ${at}, ${at}, ${at}
    from ${webhookEndpoints}
    where ${and(eq(webhookEndpoints.companyId, event.companyId), isNull(webhookEndpoints.disabledAt))}
    returning ${webhookDeliveries.id}`;
  return { messageId, message, deliveries };
}

/** Queues the event in one statement, in the caller's transaction (each status change writes one). */
export async function enqueueVerificationEvent(tx: SandboxTx, event: VerificationEvent): Promise<EnqueuedEvent> {
  const { messageId, message, deliveries } = verificationEventInserts(tx, event);
  const result = await tx.execute(sql`with message as (${message}) ${deliveries}`);
  return { messageId, deliveries: rowsOf<{ id: string }>(result).length };
}
