// The sandbox's background work inside the server process: the expiry sweeper (every few
// seconds) and the retention purge (hourly). The composition root starts it once; tests call
// runSandboxMaintenance with their own clock instead.
import 'server-only';
import { logger } from '@/lib/log';
import { isSandboxEnabled } from './config';
import { getSandboxDb, type SandboxDb } from './db';
import { expireDuePendingVerifications, type PurgeResult, purgeExpiredData } from './lifecycle';
import { purgeWebhookLog } from './webhooks/retention';

const log = logger.child({ area: 'sandbox' });

export type SandboxMaintenanceResult = { expired: number; purged: PurgeResult; webhookMessages: number };

/**
 * One sweep, then the retention purge. In this order: an expiry moves kept_until, so a record
 * that has just expired is judged by its new kept_until rather than purged on its pending one.
 * The webhook log's own retention (webhooks/retention.ts, kept as long as the audit log) runs
 * last, after the purge has written its `verification.purged` events.
 */
export async function runSandboxMaintenance(db: SandboxDb, now: Date): Promise<SandboxMaintenanceResult> {
  const expired = await expireDuePendingVerifications(db, now);
  const purged = await purgeExpiredData(db, now);
  const webhookMessages = await purgeWebhookLog(db, now);
  return { expired, purged, webhookMessages };
}

export type SandboxJobsOptions = {
  /** Time between two expiry sweeps. */
  intervalMs?: number;
  /** Time between two purges (each preceded by a sweep). */
  purgeIntervalMs?: number;
};

/** Stops the timers; resolves once a run in progress has finished. */
export type StopSandboxJobs = () => Promise<void>;

// On globalThis: Next.js bundles instrumentation and routes separately, and each bundle has its
// own module instances; the jobs must still run once per process.
const JOBS_KEY = Symbol.for('verification-desk.sandbox-jobs');

function jobsHolder(): Record<symbol, StopSandboxJobs | undefined> {
  return globalThis as unknown as Record<symbol, StopSandboxJobs | undefined>;
}

/**
 * Starts the sweeper and the purge, once per process: a second call returns the running jobs'
 * stop function. A maintenance run (sweep + purge) happens right away, so a server that was
 * down catches up at start. Each timer is rescheduled only after its run has finished, so runs
 * never pile up behind a slow database; the timers are unref'd and never keep the process alive.
 */
export function startSandboxJobs({ intervalMs = 5_000, purgeIntervalMs = 60 * 60 * 1000 }: SandboxJobsOptions = {}): StopSandboxJobs {
  const holder = jobsHolder();
  const running = holder[JOBS_KEY];
  if (running) return running;

  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();

  const schedule = (name: string, delayMs: number, everyMs: number, work: (db: SandboxDb, now: Date) => Promise<unknown>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = (async () => {
        try {
          if (isSandboxEnabled()) await work(await getSandboxDb(), new Date());
        } catch (error) {
          log.error({ err: error, job: name }, 'sandbox job failed');
        }
      })();
      inFlight.add(run);
      void run.finally(() => {
        inFlight.delete(run);
        if (!stopped) schedule(name, everyMs, everyMs, work);
      });
    }, delayMs);
    timer.unref();
    timers.add(timer);
  };

  schedule('expiry sweep', intervalMs, intervalMs, expireDuePendingVerifications);
  schedule('retention purge', 0, purgeIntervalMs, runSandboxMaintenance);

  const stop: StopSandboxJobs = async () => {
    stopped = true;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    if (holder[JOBS_KEY] === stop) delete holder[JOBS_KEY];
    await Promise.allSettled([...inFlight]);
  };
  holder[JOBS_KEY] = stop;
  return stop;
}
