// One delivery pass of the webhook sender: works through the durable queue (webhook_deliveries),
// POSTs each due event to its endpoint signed per the Standard Webhooks specification, records
// every attempt, and schedules retries with exponential backoff and jitter until the schedule
// runs out. The worker (worker.ts) runs passes in the server; tests run them directly.
//
// A delivery is claimed (locked_until set in one UPDATE … RETURNING) before it is sent, so two
// passes — overlapping timer ticks, a kick during a tick, or a second process — never send the
// same one at the same time. A process that dies mid-send leaves a lock that simply expires and
// the delivery is sent again: at-least-once, which is what the webhook-id header is for.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { systemErrorCode } from '@/lib/platform/system-error-code';
import type { SandboxDb } from '@/lib/sandbox/db';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookMessages } from '@/lib/sandbox/schema';

/**
 * Waits before the 2nd … 6th attempt: 6 attempts in total, the last one about 65 minutes after
 * the first (before jitter). Short first steps get a blip (a restart, a deploy) over quickly;
 * the long tail covers an outage without hammering the receiver.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  30_000, // 30 s
  2 * 60_000, // 2 min
  8 * 60_000, // 8 min
  20 * 60_000, // 20 min
  35 * 60_000, // 35 min
] as const;

export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** Each wait is spread ±20% so deliveries that failed together do not all retry together. */
export const WEBHOOK_RETRY_JITTER = 0.2;

/** Per attempt, until the response headers arrive; the body is never waited for. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * How long a claim holds a delivery. Well above the timeout, so a slow send is never taken over
 * by another pass while it is still in flight.
 */
export const WEBHOOK_CLAIM_MS = 60_000;

export const WEBHOOK_USER_AGENT = 'VerificationDesk-Sandbox-Webhooks/1.0';

/** Error texts are for a table cell; anything longer is cut. */
const MAX_ERROR_LENGTH = 200;

/**
 * The wait after `attempt` failed attempts (1-based) before the next one, or undefined when
 * `attempt` was the last one allowed. `random` is in [0, 1); 0.5 gives the nominal delay.
 */
export function nextAttemptDelayMs(attempt: number, random: () => number = Math.random): number | undefined {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt >= WEBHOOK_MAX_ATTEMPTS) return undefined;
  const base = WEBHOOK_RETRY_DELAYS_MS[attempt - 1]!;
  const unit = Math.min(Math.max(random(), 0), 1);
  return Math.round(base * (1 - WEBHOOK_RETRY_JITTER + 2 * WEBHOOK_RETRY_JITTER * unit));
}

// jsonb stores object keys in its own order (by length), so the stored payload comes back as
// {"data":…,"type":…,"timestamp":…}. Serialising the documented order instead keeps deliveries
// readable; the signature covers whatever bytes are sent, so the order is free to choose.
const KEY_ORDER = ['type', 'timestamp', 'data', 'verificationId', 'status'];

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value !== 'object' || value === null) return value;
  const rank = (key: string) => {
    const index = KEY_ORDER.indexOf(key);
    return index === -1 ? KEY_ORDER.length : index;
  };
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries(keys.map((key) => [key, ordered((value as Record<string, unknown>)[key])]));
}

/** The exact request body of a message: what is signed and what is sent. */
export function serializeWebhookPayload(payload: unknown): string {
  return JSON.stringify(ordered(payload));
}

type ClaimedDelivery = {
  deliveryId: string;
  messageId: string;
  /** Attempts made before this one. */
  attempts: number;
  /** The claim: the delivery's state is written back only while it still holds. */
  lockedUntil: Date;
  url: string;
  secret: string;
  payload: unknown;
};

/** Locks up to `limit` due deliveries of active endpoints for this pass, oldest due first. */
export async function claimDueDeliveries(db: SandboxDb, { now, limit }: { now: Date; limit: number }): Promise<ClaimedDelivery[]> {
  if (limit < 1) return [];
  const claimable = and(
    eq(webhookDeliveries.status, 'pending'),
    lte(webhookDeliveries.nextAttemptAt, now),
    or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
  );
  const activeEndpoints = db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(isNull(webhookEndpoints.disabledAt));
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    // A subquery rather than a join, so the row lock below takes only the deliveries.
    .where(and(claimable, inArray(webhookDeliveries.endpointId, activeEndpoints)))
    .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
    .limit(limit)
    // On a shared Postgres, a second process skips rows the first is claiming instead of
    // waiting for them; the repeated conditions below make the claim safe either way.
    .for('update', { skipLocked: true });
  const lockedUntil = new Date(now.getTime() + WEBHOOK_CLAIM_MS);
  const claimed = await db
    .update(webhookDeliveries)
    .set({ lockedUntil, updatedAt: now })
    .where(and(inArray(webhookDeliveries.id, due), claimable))
    .returning({ id: webhookDeliveries.id });
  if (claimed.length === 0) return [];

  const rows = await db
    .select({
      deliveryId: webhookDeliveries.id,
      messageId: webhookDeliveries.messageId,
      attempts: webhookDeliveries.attempts,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      payload: webhookMessages.payload,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
    .where(
      inArray(
        webhookDeliveries.id,
        claimed.map((row) => row.id),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id));
  return rows.map((row) => ({ ...row, lockedUntil }));
}

type SendResult = { responseStatus: number | null; error: string | null; durationMs: number };

/** One HTTP attempt. Never throws: a failure is a result to record. */
async function send(
  delivery: ClaimedDelivery,
  { now, fetchImpl, timeoutMs }: { now: Date; fetchImpl: typeof fetch; timeoutMs: number },
): Promise<SendResult> {
  const body = serializeWebhookPayload(delivery.payload);
  const started = performance.now();
  const duration = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const signature = new Webhook(delivery.secret).sign(delivery.messageId, now, body);
    const response = await fetchImpl(delivery.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': delivery.messageId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      signal,
      // A redirect is a failure to deliver (as Standard Webhooks senders treat it): following it
      // would post the event to an address nobody configured.
      redirect: 'manual',
    });
    const durationMs = duration();
    // The answer's body is of no use (and never stored); cancelling frees the socket without
    // waiting for a receiver that sends headers and then stalls.
    response.body?.cancel().catch(() => {});
    return { responseStatus: response.status, error: null, durationMs };
  } catch (error) {
    return { responseStatus: null, error: describeSendError(error, signal), durationMs: duration() };
  }
}

/** A short, stable reason for the attempts table; never a message echoed from elsewhere. */
function describeSendError(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'timeout';
  const code = systemErrorCode(error);
  let text: string;
  if (code === 'ECONNREFUSED') text = 'connection refused';
  else if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') text = 'connection reset';
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') text = 'host not found';
  else if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') text = 'connection timed out';
  else if (code && (code.includes('CERT') || code.includes('TLS') || code.includes('SSL'))) text = `TLS error (${code})`;
  else if (code) text = `network error (${code})`;
  else if (error instanceof Error && error.name === 'TimeoutError') text = 'timeout';
  else text = 'network error';
  return text.slice(0, MAX_ERROR_LENGTH);
}

export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed';

/** Sends one claimed delivery and records the attempt and the delivery's new state together. */
export async function attemptDelivery(
  db: SandboxDb,
  delivery: ClaimedDelivery,
  { now, fetchImpl, random, timeoutMs }: { now: Date; fetchImpl: typeof fetch; random: () => number; timeoutMs: number },
): Promise<DeliveryOutcome> {
  const result = await send(delivery, { now, fetchImpl, timeoutMs });
  const attempts = delivery.attempts + 1;
  const ok = result.responseStatus !== null && result.responseStatus >= 200 && result.responseStatus <= 299;
  const delay = ok ? undefined : nextAttemptDelayMs(attempts, random);
  const outcome: DeliveryOutcome = ok ? 'succeeded' : delay === undefined ? 'failed' : 'retrying';

  await db.transaction(async (tx) => {
    // Recorded even if the claim was lost meanwhile: the request did go out.
    await tx.insert(webhookAttempts).values({
      id: randomUUID(),
      deliveryId: delivery.deliveryId,
      attemptedAt: now,
      responseStatus: result.responseStatus,
      error: result.error,
      durationMs: result.durationMs,
    });
    await tx
      .update(webhookDeliveries)
      .set({
        status: outcome === 'retrying' ? 'pending' : outcome,
        attempts,
        // A finished delivery keeps the time of its last attempt here; only pending ones wait.
        nextAttemptAt: delay === undefined ? now : new Date(now.getTime() + delay),
        lockedUntil: null,
        updatedAt: new Date(),
      })
      .where(and(eq(webhookDeliveries.id, delivery.deliveryId), eq(webhookDeliveries.lockedUntil, delivery.lockedUntil)));
  });
  return outcome;
}

export type DeliveryPassResult = { claimed: number; succeeded: number; retrying: number; failed: number };

export type DeliveryOptions = {
  /** The pass's clock: what is due, the attempt time, the signature timestamp, the next attempt. */
  now?: Date;
  /** Defaults to the global fetch, looked up per call. */
  fetch?: typeof fetch;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Most deliveries claimed by this pass. */
  limit?: number;
  /** Per attempt; tests shorten it. */
  timeoutMs?: number;
};

/**
 * One pass: claims what is due and sends it all concurrently (one slow endpoint must not hold up
 * the others), resolving when every attempt is recorded.
 */
export async function deliverDueWebhooks(db: SandboxDb, options: DeliveryOptions = {}): Promise<DeliveryPassResult> {
  const now = options.now ?? new Date();
  const claimed = await claimDueDeliveries(db, { now, limit: options.limit ?? 50 });
  const outcomes = await Promise.all(
    claimed.map((delivery) =>
      attemptDelivery(db, delivery, {
        now,
        fetchImpl: options.fetch ?? fetch,
        random: options.random ?? Math.random,
        timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      }),
    ),
  );
  return {
    claimed: claimed.length,
    succeeded: outcomes.filter((outcome) => outcome === 'succeeded').length,
    retrying: outcomes.filter((outcome) => outcome === 'retrying').length,
    failed: outcomes.filter((outcome) => outcome === 'failed').length,
  };
}
