// The sandbox's background work inside the server process: the expiry sweeper (every few
// seconds) and the retention purge (hourly), each run once per period by whichever instance
// claims it in the sandbox's lease table. The composition root starts it once per process; tests
// call runSandboxMaintenance with their own clock instead.
import 'server-only';
import { type StopPeriodicJobs, startPeriodicJobs } from '@/lib/platform/periodic-jobs';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';
import { getSandboxDb, type SandboxDb } from '@/lib/sandbox/db';
import { jobLeases } from '@/lib/sandbox/schema';
import { purgeWebhookLog } from '@/lib/sandbox/webhook-sender/retention';
import { expireDuePendingVerifications, type PurgeResult, purgeExpiredData } from './lifecycle';

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
  /** Names this instance in the lease table; host:pid by default. Tests that play several instances set it. */
  owner?: string;
};

/** Stops the timers; resolves once a run in progress has finished. */
export type StopSandboxJobs = StopPeriodicJobs;

/**
 * Starts the sweeper and the purge, once per process: a second call returns the running jobs'
 * stop function. A maintenance run (sweep + purge) happens right away, so a server that was
 * down catches up at start.
 */
export function startSandboxJobs({
  intervalMs = 5_000,
  purgeIntervalMs = 60 * 60 * 1000,
  owner,
}: SandboxJobsOptions = {}): StopSandboxJobs {
  const whileEnabled = (work: (db: SandboxDb, now: Date) => Promise<unknown>) => async () => {
    if (isSandboxEnabled()) await work(await getSandboxDb(), new Date());
  };
  return startPeriodicJobs(
    'sandbox',
    [
      { name: 'expiry sweep', firstRunAfterMs: intervalMs, everyMs: intervalMs, run: whileEnabled(expireDuePendingVerifications) },
      { name: 'retention purge', firstRunAfterMs: 0, everyMs: purgeIntervalMs, run: whileEnabled(runSandboxMaintenance) },
    ],
    { db: getSandboxDb, table: jobLeases, owner },
  );
}
