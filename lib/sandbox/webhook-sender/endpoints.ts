// A company's webhook endpoints: where its events go, each with its own Standard Webhooks
// secret. Added with the CLI (or by start-up provisioning for the zero-config dashboard); the
// secret is printed once there and otherwise only ever used to sign.
import 'server-only';
import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { SandboxDb, SandboxTx } from '@/lib/sandbox/db';
import { webhookDeliveries, webhookEndpoints } from '@/lib/sandbox/schema';

type Queryable = SandboxDb | SandboxTx;

/** The Standard Webhooks secret format: this prefix, then base64 of the key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Long enough for any real address, short enough that a table cell stays readable. */
export const MAX_ENDPOINT_URL_LENGTH = 2_000;

export class InvalidWebhookEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidWebhookEndpointError';
  }
}

/** An endpoint as shown to people: everything except the secret. */
export type WebhookEndpointSummary = {
  id: string;
  companyId: string;
  url: string;
  isDefault: boolean;
  createdAt: Date;
  disabledAt: Date | null;
};

/**
 * 32 random bytes: the key size the Standard Webhooks specification recommends for HMAC-SHA256
 * (it allows 24 to 64).
 */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * Checks an endpoint address and returns it normalised. Only http(s), and no user:password part:
 * the URL is listed by the CLI and shown on the dashboard, so credentials in it would leak; the
 * signature is what authenticates a delivery.
 */
export function parseEndpointUrl(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length > MAX_ENDPOINT_URL_LENGTH) {
    throw new InvalidWebhookEndpointError(`url must be at most ${MAX_ENDPOINT_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new InvalidWebhookEndpointError('url must be an absolute http(s) URL, e.g. https://example.com/webhooks');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidWebhookEndpointError('url must use http or https');
  }
  if (url.username || url.password) {
    throw new InvalidWebhookEndpointError('url must not contain a user name or password');
  }
  // A fragment never reaches the server; dropping it keeps the stored address honest.
  url.hash = '';
  return url.toString();
}

/** Adds an endpoint; the returned secret is the one to configure on the receiving side. */
export async function addWebhookEndpoint(
  db: Queryable,
  input: { companyId: string; url: string; isDefault?: boolean },
): Promise<{ id: string; secret: string }> {
  const url = parseEndpointUrl(input.url);
  const id = randomUUID();
  const secret = generateWebhookSecret();
  await db.insert(webhookEndpoints).values({ id, companyId: input.companyId, url, secret, isDefault: input.isDefault ?? false });
  return { id, secret };
}

/** A company's endpoints, oldest first, disabled ones included (their deliveries stay visible). */
export async function listWebhookEndpoints(db: Queryable, companyId: string): Promise<WebhookEndpointSummary[]> {
  return db
    .select({
      id: webhookEndpoints.id,
      companyId: webhookEndpoints.companyId,
      url: webhookEndpoints.url,
      isDefault: webhookEndpoints.isDefault,
      createdAt: webhookEndpoints.createdAt,
      disabledAt: webhookEndpoints.disabledAt,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.companyId, companyId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

/**
 * Stops all deliveries to an endpoint. New events skip it (enqueue only picks active endpoints),
 * and what was still waiting is closed as failed without another attempt, so the queue holds no
 * rows that can never be sent. Returns false when there is no such active endpoint.
 */
export async function disableWebhookEndpoint(
  db: Queryable,
  { endpointId, now = new Date() }: { endpointId: string; now?: Date },
): Promise<boolean> {
  const disabled = await db
    .update(webhookEndpoints)
    .set({ disabledAt: now })
    .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)))
    .returning({ id: webhookEndpoints.id });
  if (disabled.length === 0) return false;
  await db
    .update(webhookDeliveries)
    .set({ status: 'failed', lockedUntil: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')));
  return true;
}

/**
 * Replaces a company's default endpoint (the zero-config dashboard's receiver) with a fresh one
 * at `url`, with a fresh secret. Deliveries still waiting for the old endpoint move to the new
 * one and become due at once: they are signed when sent, so events queued before a restart
 * still reach the dashboard, with the secret it now holds. The old endpoint is disabled rather
 * than deleted, so its history stays visible.
 */
export async function replaceDefaultWebhookEndpoint(
  tx: SandboxTx,
  { companyId, url, now = new Date() }: { companyId: string; url: string; now?: Date },
): Promise<{ id: string; secret: string }> {
  const previous = await tx
    .update(webhookEndpoints)
    .set({ isDefault: false, disabledAt: now })
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.isDefault, true), isNull(webhookEndpoints.disabledAt)))
    .returning({ id: webhookEndpoints.id });
  const created = await addWebhookEndpoint(tx, { companyId, url, isDefault: true });
  if (previous.length > 0) {
    await tx
      .update(webhookDeliveries)
      // This runs at start-up, before this process's worker exists, so a lock can only be left
      // over from a process that stopped mid-send.
      .set({ endpointId: created.id, nextAttemptAt: now, lockedUntil: null, updatedAt: now })
      .where(
        and(
          inArray(
            webhookDeliveries.endpointId,
            previous.map((endpoint) => endpoint.id),
          ),
          eq(webhookDeliveries.status, 'pending'),
        ),
      );
  }
  return created;
}
