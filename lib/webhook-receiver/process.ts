// Applies one authenticated webhook delivery: exactly once per `webhook-id`, by re-reading the
// record from the service (events are thin — "something changed for id X" — and the payload is
// not trusted), bringing the dashboard's register up to date without ever moving a record
// backwards, recording it in the audit trail, and telling open browsers through lib/live.
//
// Failure contract with the sender: a 2xx is given only once the change is stored. If anything
// fails after the receipt was taken, the receipt is released and the error thrown, so the route
// answers 5xx and the sender's retry is processed rather than dropped as a duplicate.
import { processSingleton } from '@/lib/platform/process-singleton';
import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { verificationRequests, webhookReceipts } from '@/lib/db/schema';
import { publishVerificationChange } from '@/lib/live';
import { logger } from '@/lib/platform/log';
import {
  getVerification,
  isVerificationServiceError,
  normalizeVerificationId,
  type VerificationRecord,
  type VerificationServiceErrorKind,
} from '@/lib/verification-service';
import { forgetRegisterEntries } from '@/lib/verifications/register-cache';
import { refreshRegisterEntry } from '@/lib/verifications/register-writes';

const log = logger.child({ area: 'webhooks' });

export const WEBHOOK_EVENT_TYPES = [
  'verification.created',
  'verification.completed',
  'verification.failed',
  'verification.expired',
  'verification.purged',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The status published to browsers when a record is gone from the service. */
export const PURGED_STATUS = 'purged';

export type WebhookOutcome =
  /** Applied; `status` is the register's status afterwards (or the service's, if not registered). */
  | { result: 'processed'; verificationId: string; status: string }
  | { result: 'duplicate' }
  /** An event type this dashboard does not know (forward compatible): acknowledged, nothing done. */
  | { result: 'ignored' }
  /** Signed, but not an event we can read: retrying would not help, so the route answers 400. */
  | { result: 'invalid_payload' };

/** Thrown when the delivery could not be applied now; the route answers 5xx so the sender retries. */
export class WebhookProcessingError extends Error {
  constructor(
    message: string,
    /** The service client's error kind when the re-read failed; absent for our own failures. */
    readonly kind?: VerificationServiceErrorKind,
  ) {
    super(message);
    this.name = 'WebhookProcessingError';
  }
}

// Liberal where it costs nothing (extra fields, a missing `status`, which is not trusted
// anyway), strict on what processing needs: a known type and an id.
const eventSchema = z.object({
  type: z.string(),
  data: z.object({ verificationId: z.string() }),
});

type ParsedEvent = { type: WebhookEventType; verificationId: string } | 'unknown_type' | 'invalid';

function parseEvent(body: string): ParsedEvent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'invalid';
  }
  // The type is read before the shape is checked: a future event type may carry other data.
  if (typeof json === 'object' && json !== null && typeof (json as { type?: unknown }).type === 'string') {
    if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes((json as { type: string }).type)) return 'unknown_type';
  }
  const parsed = eventSchema.safeParse(json);
  if (!parsed.success) return 'invalid';
  try {
    // The id goes into a URL path for the re-read; one that would change the path is refused.
    const verificationId = normalizeVerificationId(parsed.data.data.verificationId);
    return { type: parsed.data.type as WebhookEventType, verificationId };
  } catch {
    return 'invalid';
  }
}

// Copies of one delivery arriving together (a sender retrying after its own timeout while the
// first copy is still being processed) wait for that first copy and share its fate. Without this
// a copy would see the receipt, answer "duplicate" (a 2xx), and if the first copy then failed and
// released its receipt, the sender would have stopped retrying and the change would be lost.
// A process singleton, for the same reason as lib/live: route bundles do not share module state.
// One server process owns the embedded database, so every copy of a delivery reaches this map.
function inFlight(): Map<string, Promise<WebhookOutcome>> {
  return processSingleton('webhooks-in-flight', () => new Map<string, Promise<WebhookOutcome>>());
}

/** Applies a verified delivery once. Throws WebhookProcessingError when the sender should retry. */
export async function processWebhook(webhookId: string, body: string): Promise<WebhookOutcome> {
  const running = inFlight();
  const first = running.get(webhookId);
  if (first) {
    try {
      const outcome = await first;
      return outcome.result === 'processed' ? { result: 'duplicate' } : outcome;
    } catch (error) {
      // The same failure (and so the same answer) as the copy that was processed.
      throw error instanceof WebhookProcessingError ? error : new WebhookProcessingError('a concurrent copy of this delivery failed');
    }
  }
  const run = processOnce(webhookId, body);
  running.set(webhookId, run);
  try {
    return await run;
  } finally {
    running.delete(webhookId);
  }
}

async function processOnce(webhookId: string, body: string): Promise<WebhookOutcome> {
  const event = parseEvent(body);
  // Neither takes a receipt: nothing is stored for a delivery that changes nothing.
  if (event === 'unknown_type') return { result: 'ignored' };
  if (event === 'invalid') return { result: 'invalid_payload' };

  const db = await getDb();
  // The receipt is the claim: of any number of copies (also one arriving after a restart), exactly one
  // insert returns a row, and only that one goes on.
  const claimed = await db
    .insert(webhookReceipts)
    .values({ webhookId, eventType: event.type, verificationId: event.verificationId })
    .onConflictDoNothing({ target: webhookReceipts.webhookId })
    .returning({ webhookId: webhookReceipts.webhookId });
  if (claimed.length === 0) return { result: 'duplicate' };

  try {
    const status = await apply(event);
    return { result: 'processed', verificationId: event.verificationId, status };
  } catch (error) {
    // Released so that the sender's retry of this same id is processed, not taken for a duplicate.
    await db
      .delete(webhookReceipts)
      .where(eq(webhookReceipts.webhookId, webhookId))
      .catch((releaseError: unknown) => log.error({ err: releaseError, webhookId }, 'could not release a receipt after a failure'));
    if (error instanceof WebhookProcessingError) throw error;
    // lib/platform/log keeps a database error's message but withholds a failed query's parameters.
    log.error({ err: error, webhookId, verificationId: event.verificationId }, 'processing a webhook failed');
    throw new WebhookProcessingError('the change could not be stored');
  }
}

/** Brings the register and open browsers up to date; returns the status to publish. */
async function apply(event: { type: WebhookEventType; verificationId: string }): Promise<string> {
  const { verificationId } = event;
  if (event.type === 'verification.purged') {
    await removeFromRegister(verificationId);
    publishVerificationChange({ verificationId, status: PURGED_STATUS });
    return PURGED_STATUS;
  }

  let record: VerificationRecord;
  try {
    record = await getVerification(verificationId);
  } catch (error) {
    if (isVerificationServiceError(error) && error.kind === 'not_found') {
      // Gone from the service (purged at its kept_until): the register's copy goes too.
      await removeFromRegister(verificationId);
      publishVerificationChange({ verificationId, status: PURGED_STATUS });
      return PURGED_STATUS;
    }
    const kind = isVerificationServiceError(error) ? error.kind : undefined;
    throw new WebhookProcessingError(`the record could not be re-read (${kind ?? 'unexpected error'})`, kind);
  }

  // No row: not one of ours, or already purged, and a late event must not bring it back.
  const status = (await refreshRegisterEntry(verificationId, record)) ?? record.status;
  publishVerificationChange({ verificationId, status });
  return status;
}

async function removeFromRegister(verificationId: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(verificationRequests)
      .where(eq(verificationRequests.verificationId, verificationId))
      .returning({ verificationId: verificationRequests.verificationId });
    if (removed.length > 0) {
      await recordAudit(
        {
          actorId: null,
          action: 'verification.removed',
          target: { type: 'verification', id: verificationId },
          details: { reason: 'purged' },
        },
        tx,
      );
    }
  });
  forgetRegisterEntries(db);
}
