// GET /v1/sandbox/webhooks — not part of the service contract: the caller's webhook endpoints
// and its latest events with every delivery and attempt, so the dashboard can show staff what
// was sent where and why it did or did not arrive. Secrets are never part of the answer.
import 'server-only';
import { asc, desc, eq, inArray } from 'drizzle-orm';
import { jsonResponse } from '@/lib/platform/json-response';
import { sandboxApiRoute } from '@/lib/sandbox/api/http';
import type { SandboxDb } from '@/lib/sandbox/db';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookMessages } from '@/lib/sandbox/schema';
import { listWebhookEndpoints } from './endpoints';

export const WEBHOOK_LOG_LIMIT = 100;

export type WebhookLog = {
  endpoints: { id: string; url: string; createdAt: string; disabledAt: string | null }[];
  messages: {
    id: string;
    type: string;
    verificationId: string | null;
    status: string | null;
    createdAt: string;
    deliveries: {
      endpointId: string;
      url: string;
      status: string;
      attemptCount: number;
      /** Only while the delivery is still pending. */
      nextAttemptAt: string | null;
      attempts: { attemptedAt: string; responseStatus: number | null; error: string | null; durationMs: number }[];
    }[];
  }[];
};

function dataField(payload: unknown, field: 'verificationId' | 'status'): string | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const data = (payload as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null) return null;
  const value = (data as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : null;
}

// Map.groupBy needs Node 21; the app supports Node 20.9.
function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** One company's endpoints and its latest messages (newest first) with deliveries and attempts. */
export async function getCompanyWebhookLog(db: SandboxDb, companyId: string, limit = WEBHOOK_LOG_LIMIT): Promise<WebhookLog> {
  const endpoints = await listWebhookEndpoints(db, companyId);
  const messages = await db
    .select()
    .from(webhookMessages)
    .where(eq(webhookMessages.companyId, companyId))
    .orderBy(desc(webhookMessages.createdAt), desc(webhookMessages.id))
    .limit(limit);

  const deliveries =
    messages.length === 0
      ? []
      : await db
          .select({
            id: webhookDeliveries.id,
            messageId: webhookDeliveries.messageId,
            endpointId: webhookDeliveries.endpointId,
            url: webhookEndpoints.url,
            status: webhookDeliveries.status,
            attempts: webhookDeliveries.attempts,
            nextAttemptAt: webhookDeliveries.nextAttemptAt,
          })
          .from(webhookDeliveries)
          .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
          .where(
            inArray(
              webhookDeliveries.messageId,
              messages.map((message) => message.id),
            ),
          )
          .orderBy(asc(webhookEndpoints.createdAt), asc(webhookDeliveries.id));

  const attempts =
    deliveries.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              deliveries.map((delivery) => delivery.id),
            ),
          )
          .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));

  const attemptsByDelivery = groupBy(attempts, (attempt) => attempt.deliveryId);
  const deliveriesByMessage = groupBy(deliveries, (delivery) => delivery.messageId);

  return {
    endpoints: endpoints.map((endpoint) => ({
      id: endpoint.id,
      url: endpoint.url,
      createdAt: endpoint.createdAt.toISOString(),
      disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    })),
    messages: messages.map((message) => ({
      id: message.id,
      type: message.type,
      verificationId: dataField(message.payload, 'verificationId'),
      status: dataField(message.payload, 'status'),
      createdAt: message.createdAt.toISOString(),
      deliveries: (deliveriesByMessage.get(message.id) ?? []).map((delivery) => ({
        endpointId: delivery.endpointId,
        url: delivery.url,
        status: delivery.status,
        attemptCount: delivery.attempts,
        nextAttemptAt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
        attempts: (attemptsByDelivery.get(delivery.id) ?? []).map((attempt) => ({
          attemptedAt: attempt.attemptedAt.toISOString(),
          responseStatus: attempt.responseStatus,
          error: attempt.error,
          durationMs: attempt.durationMs,
        })),
      })),
    })),
  };
}

/** GET /v1/sandbox/webhooks */
export const companyWebhooksRoute = sandboxApiRoute<unknown>(async (_request, { db, companyId }) =>
  jsonResponse(await getCompanyWebhookLog(db, companyId)),
);
