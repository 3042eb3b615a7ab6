// The dashboard's background work: its retention, now and every hour. Audit entries go after
// AUDIT_RETENTION_DAYS, register rows when the service's record is due for purging (kept_until),
// the create-once claims once no double submission can still arrive, webhook receipts once
// no redelivery of their message can still arrive, live events once no browser can still
// replay them, and the shared rate limits' events of keys not seen again since their window
// passed. The counterpart of the sandbox's jobs
// (lib/sandbox/records/jobs.ts), on the same runner.
import 'server-only';
import { purgeExpiredAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { jobLeases } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';
import { LIVE_EVENTS_KEPT_MS, purgeOldLiveEvents } from '@/lib/live/retention';
import { logger } from '@/lib/platform/log';
import { type StopPeriodicJobs, startPeriodicJobs } from '@/lib/platform/periodic-jobs';
import { purgeOldSubmissionKeys } from '@/lib/verifications/create/create-verification.server';
import { purgeOldRateLimitEvents } from '@/lib/verifications/create/rate-limit-events.server';
import { purgeExpiredRegisterEntries } from '@/lib/verifications/register/retention.server';
import { purgeOldWebhookReceipts, WEBHOOK_RECEIPTS_KEPT_MS } from '@/lib/webhook-receiver/receipt-retention';

const log = logger.child({ area: 'retention' });

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export type RetentionResult = {
  auditEntries: number;
  registerEntries: number;
  webhookReceipts: number;
  liveEvents: number;
  rateLimitEvents: number;
};

/** One retention run; each purge logs what it removed. */
export async function runDashboardRetention(): Promise<RetentionResult> {
  const retentionDays = getEnv().AUDIT_RETENTION_DAYS;
  const auditEntries = await purgeExpiredAudit(retentionDays);
  if (auditEntries > 0) log.info({ purged: auditEntries, retentionDays }, 'audit entries past their retention purged');
  const registerEntries = await purgeExpiredRegisterEntries();
  if (registerEntries > 0) log.info({ removed: registerEntries }, 'register entries past their retention removed');
  await purgeOldSubmissionKeys();
  const webhookReceipts = await purgeOldWebhookReceipts();
  if (webhookReceipts > 0) {
    log.info(
      { removed: webhookReceipts, keptDays: WEBHOOK_RECEIPTS_KEPT_MS / DAY_MS },
      'webhook receipts past the redelivery window removed',
    );
  }
  const liveEvents = await purgeOldLiveEvents();
  if (liveEvents > 0)
    log.info({ removed: liveEvents, keptHours: LIVE_EVENTS_KEPT_MS / HOUR_MS }, 'live events past their replay window removed');
  const rateLimitEvents = await purgeOldRateLimitEvents();
  return { auditEntries, registerEntries, webhookReceipts, liveEvents, rateLimitEvents };
}

/**
 * Starts the hourly retention once per process. It runs once an hour for the whole deployment
 * (whichever instance claims it in job_leases), the first time right away.
 */
export function startRetentionJobs({ everyMs = HOUR_MS }: { everyMs?: number } = {}): StopPeriodicJobs {
  return startPeriodicJobs('retention', [{ name: 'retention purge', firstRunAfterMs: 0, everyMs, run: runDashboardRetention }], {
    db: getDb,
    table: jobLeases,
  });
}
