// The webhook sender's background worker: runs delivery passes (delivery-pass.ts) on a timer
// and whenever a change is committed, so an event reaches its receiver in milliseconds. One per
// process: instrumentation starts it and route handlers kick it after a change, from bundles of
// their own, and both must reach the same worker.
import 'server-only';
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';
import { getSandboxDb, type SandboxDb } from '@/lib/sandbox/db';
import { attemptDelivery, claimDueDeliveries, WEBHOOK_TIMEOUT_MS } from './delivery-pass';

const log = logger.child({ area: 'sandbox-webhooks' });

export type WebhookDeliveryWorker = { kick: () => void; stop: () => void };

function workerSlot(): { worker: WebhookDeliveryWorker | undefined } {
  return processSingleton('sandbox-webhook-worker', () => ({ worker: undefined as WebhookDeliveryWorker | undefined }));
}

export type WebhookWorkerOptions = {
  /** How often due deliveries (retries, anything a kick missed) are looked for. */
  intervalMs?: number;
  /** Most deliveries in flight at once. */
  concurrency?: number;
  fetch?: typeof fetch;
};

/**
 * Starts the delivery worker, once per process; later calls return the running worker's stop.
 * Other instances on the same database run workers of their own on the same queue: each
 * delivery is claimed by one of them (delivery-pass.ts), so it is sent once.
 */
export function startWebhookDelivery(options: WebhookWorkerOptions = {}): () => void {
  const slot = workerSlot();
  if (slot.worker) return slot.worker.stop;
  const worker = createWebhookDeliveryWorker({ ...options, db: () => getSandboxDb() });
  const stop = () => {
    worker.stop();
    if (slot.worker?.stop === stop) slot.worker = undefined;
  };
  slot.worker = { kick: worker.kick, stop };
  worker.kick();
  return stop;
}

/**
 * A delivery worker on `db`, not registered anywhere: what startWebhookDelivery runs, and what a
 * test runs twice to play two instances. Each tick claims only as many deliveries as there are
 * free slots and does not wait for them, so a hanging endpoint ties up one slot for its
 * timeout, not the whole queue.
 */
export function createWebhookDeliveryWorker({
  db: openDb,
  intervalMs = 1_000,
  concurrency = 16,
  fetch: fetchOption,
}: WebhookWorkerOptions & { db: () => Promise<SandboxDb> }): WebhookDeliveryWorker {
  let stopped = false;
  let ticking = false;
  let tickAgain = false;
  let kickPending = false;
  let inFlight = 0;

  const tick = async () => {
    if (stopped) return;
    if (ticking) {
      // A kick during a claim: the change it announces may have committed after the claim read.
      tickAgain = true;
      return;
    }
    ticking = true;
    try {
      const free = concurrency - inFlight;
      if (free > 0) {
        const db = await openDb();
        const now = new Date();
        const claimed = await claimDueDeliveries(db, { now, limit: free });
        const backlog = claimed.length === free;
        for (const delivery of claimed) {
          inFlight += 1;
          attemptDelivery(db, delivery, {
            now,
            fetchImpl: fetchOption ?? fetch,
            random: Math.random,
            timeoutMs: WEBHOOK_TIMEOUT_MS,
          })
            .catch((error: unknown) => log.error({ err: error, deliveryId: delivery.deliveryId }, 'recording a webhook attempt failed'))
            .finally(() => {
              inFlight -= 1;
              // The queue may hold more than the slots took; a freed slot goes straight to it.
              if (backlog) kick();
            });
        }
      }
    } catch (error) {
      if (!stopped) log.error({ err: error }, 'webhook delivery pass failed');
    } finally {
      ticking = false;
      if (tickAgain) {
        tickAgain = false;
        kick();
      }
    }
  };

  const kick = () => {
    if (stopped || kickPending) return;
    kickPending = true;
    // Coalesces a burst of kicks (one per status change) into one pass, after the caller's
    // current work (its commit) has finished.
    setImmediate(() => {
      kickPending = false;
      void tick();
    });
  };

  const timer = setInterval(() => void tick(), intervalMs);
  // The worker never keeps the process alive by itself.
  timer.unref();

  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return { kick, stop };
}

/**
 * Asks the running worker for a pass now rather than at its next tick, so a status change
 * reaches the receiver in milliseconds. Cheap and safe to call as often as wanted (kicks
 * coalesce), and a no-op where no worker runs (tests, the CLI). Call it after the change's
 * transaction has committed.
 */
export function kickWebhookDelivery(): void {
  workerSlot().worker?.kick();
}
