// Queues a webhook event for every active endpoint of a company, in the caller's transaction:
// the event exists exactly when the change it reports was committed. Delivery is the worker's
// job (deliver.ts); this only writes the durable queue.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { SandboxTx } from '../db';
import { webhookDeliveries, webhookEndpoints, webhookMessages } from '../schema';

export const VERIFICATION_EVENT_TYPES = [
  'verification.created',
  'verification.completed',
  'verification.failed',
  'verification.expired',
  'verification.purged',
] as const;

export type VerificationEventType = (typeof VERIFICATION_EVENT_TYPES)[number];

/** Thin events: "something changed for id X"; receivers re-read the record (seed §6, DESIGN). */
export type VerificationEventPayload = {
  type: VerificationEventType;
  timestamp: string;
  data: { verificationId: string; status: string };
};

/** The queued event, and how many deliveries it got (0 when the company has no active endpoint). */
export type EnqueuedEvent = { messageId: string; deliveries: number };

export async function enqueueVerificationEvent(
  tx: SandboxTx,
  event: { companyId: string; verificationId: string; type: VerificationEventType; status: string; now?: Date },
): Promise<EnqueuedEvent> {
  const now = event.now ?? new Date();
  const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
  const payload: VerificationEventPayload = {
    type: event.type,
    timestamp: now.toISOString(),
    data: { verificationId: event.verificationId, status: event.status },
  };
  await tx.insert(webhookMessages).values({ id: messageId, companyId: event.companyId, type: event.type, payload, createdAt: now });
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, event.companyId), isNull(webhookEndpoints.disabledAt)));
  if (endpoints.length > 0) {
    await tx.insert(webhookDeliveries).values(
      endpoints.map((endpoint) => ({
        id: randomUUID(),
        messageId,
        endpointId: endpoint.id,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  return { messageId, deliveries: endpoints.length };
}
