// Applies one authenticated webhook delivery: exactly once per `webhook-id`, by re-reading the
// record from the service (events are thin — "something changed for id X" — and the payload is
// not trusted), bringing the dashboard's register up to date without ever moving a record
// backwards, recording it in the audit trail, and telling open browsers through lib/live.
//
// Failure contract with the sender: a 2xx is given only once the change is stored, and with it
// the event that tells open browsers. The receipt, the register's change, its audit entry and the
// live event commit in one transaction: if anything fails, none of them exists, the route answers
// 5xx and the sender's retry is processed rather than dropped as a duplicate.
//
// Once per `webhook-id` across instances: the receipt row is the claim, inserted first in that
// transaction. A copy of the delivery being applied on another instance at the same moment
// inserts the same key and PostgreSQL makes it wait for the first transaction: if that commits,
// the copy finds the receipt and answers "duplicate"; if it fails, the copy's claim succeeds and
// the copy applies the change. No copy answers 2xx before the change is stored.
import { processSingleton } from '@/lib/platform/process-singleton';
import 'server-only';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '@/lib/audit/audit';
import { type Db, getDb } from '@/lib/db';
import { verificationRequests, webhookReceipts } from '@/lib/db/schema';
import { publishVerificationChange } from '@/lib/live';
import { logger } from '@/lib/platform/log';
import { normalizeVerificationId, type VerificationServiceErrorKind } from '@/lib/verification-service';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import { readVerification, type VerificationRead } from '@/lib/verifications/record/read-verification.server';
import { forgetRegisterEntries } from '@/lib/verifications/register/cache.server';
import type { RegisterTx } from '@/lib/verifications/register/writes.server';

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
    // The register knows the request under its canonical spelling (lib/verification-service/contract/verification-id.ts).
    const verificationId = canonicalVerificationId(normalizeVerificationId(parsed.data.data.verificationId));
    return { type: parsed.data.type as WebhookEventType, verificationId };
  } catch {
    return 'invalid';
  }
}

// Copies of one delivery arriving together at this process (a sender retrying after its own
// timeout while the first copy is still being processed) wait for that first copy and share its
// fate, rather than each re-reading the record from the service. Correctness does not rest on
// this map (the claim in the database decides, see the top); it saves the service the extra reads.
// A process singleton, for the same reason as lib/live: route bundles do not share module state.
// Kept per database: a test's second handle stands for another instance, which shares no memory.
function inFlight(db: Db): Map<string, Promise<WebhookOutcome>> {
  const all = processSingleton('webhooks-in-flight', () => new WeakMap<Db, Map<string, Promise<WebhookOutcome>>>());
  let running = all.get(db);
  if (!running) {
    running = new Map();
    all.set(db, running);
  }
  return running;
}

/**
 * Applies a verified delivery once, on the dashboard's database (or `options.db`: another
 * instance's handle, in tests). Throws WebhookProcessingError when the sender should retry.
 */
export async function processWebhook(webhookId: string, body: string, options: { db?: Db } = {}): Promise<WebhookOutcome> {
  const db = options.db ?? (await getDb());
  const running = inFlight(db);
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
  const run = processOnce(db, webhookId, body);
  running.set(webhookId, run);
  try {
    return await run;
  } finally {
    running.delete(webhookId);
  }
}

async function processOnce(db: Db, webhookId: string, body: string): Promise<WebhookOutcome> {
  const event = parseEvent(body);
  // Neither takes a receipt: nothing is stored for a delivery that changes nothing.
  if (event === 'unknown_type') return { result: 'ignored' };
  if (event === 'invalid') return { result: 'invalid_payload' };

  // A copy of a delivery already applied (here, on another instance, or before a restart) is
  // answered from its receipt, without asking the service again.
  if (await receiptExists(db, webhookId)) return { result: 'duplicate' };

  // Outside the transaction: no connection is held while the service answers (on the embedded
  // store, the sandbox that answers needs the same database).
  const truth = await readTruth(event);

  let outcome: WebhookOutcome;
  try {
    outcome = await db.transaction(async (tx) => {
      const claimed = await tx
        .insert(webhookReceipts)
        .values({ webhookId, eventType: event.type, verificationId: event.verificationId })
        .onConflictDoNothing({ target: webhookReceipts.webhookId })
        .returning({ webhookId: webhookReceipts.webhookId });
      if (claimed.length === 0) return { result: 'duplicate' } as const;
      const { verificationId } = event;
      const status =
        truth === 'gone'
          ? await removeFromRegister(tx, verificationId)
          : // No row: not one of ours, or already purged, and a late event must not bring it back.
            ((await truth.refreshRegister(tx)) ?? truth.record.status);
      // Last: it holds the log's lock until the commit (lib/live/event-log.ts).
      await publishVerificationChange({ verificationId, status }, tx);
      return { result: 'processed', verificationId, status } as const;
    });
  } catch (error) {
    // lib/platform/log keeps a database error's message but withholds a failed query's parameters.
    log.error({ err: error, webhookId, verificationId: event.verificationId }, 'processing a webhook failed');
    throw new WebhookProcessingError('the change could not be stored');
  }
  // This instance's next read must not meet the old row (see lib/verifications/register/cache.server.ts).
  if (outcome.result === 'processed') forgetRegisterEntries(db);
  return outcome;
}

async function receiptExists(db: Db, webhookId: string): Promise<boolean> {
  const [row] = await db.select({ found: sql<number>`1` }).from(webhookReceipts).where(eq(webhookReceipts.webhookId, webhookId)).limit(1);
  return row !== undefined;
}

/**
 * What the service says about the event's record now; 'gone' once it answers 404. Every type is
 * re-read, `verification.purged` too: a signed notice is still only "something changed", and
 * removing a row on its word alone would erase a record the service still has.
 */
async function readTruth(event: { type: WebhookEventType; verificationId: string }): Promise<RecordRead | 'gone'> {
  // The register is brought up to date inside the delivery's transaction, with its receipt.
  const read = await readVerification(event.verificationId, { refresh: 'by-caller' });
  if (read.ok) return read;
  // Gone from the service (purged at its kept_until): the register's copy goes too.
  if (read.failure.kind === 'not_found') return 'gone';
  const kind = read.failure.kind === 'unknown' ? undefined : read.failure.kind;
  throw new WebhookProcessingError(`the record could not be re-read (${kind ?? 'unexpected error'})`, kind);
}

type RecordRead = Extract<VerificationRead, { ok: true }>;

/** Removes a record the service no longer has; returns the status to publish. */
async function removeFromRegister(tx: RegisterTx, verificationId: string): Promise<string> {
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
  return PURGED_STATUS;
}
