// The audit chain's background work, on the same runner as retention (one instance runs each job
// for the whole deployment): every minute, sign a checkpoint if one is due (AUDIT_CHECKPOINT_ENTRIES
// or AUDIT_CHECKPOINT_MINUTES); every hour, and at start, check the whole chain. A break is logged
// by the check and shown on the audit page and in /api/ready.
import 'server-only';
import { checkAuditChain } from '@/lib/audit/chain/chain-check.server';
import { signCheckpointIfDue } from '@/lib/audit/chain/checkpoints.server';
import { getDb } from '@/lib/db';
import { jobLeases } from '@/lib/db/schema';
import { type StopPeriodicJobs, startPeriodicJobs } from '@/lib/platform/periodic-jobs';

const MINUTE_MS = 60_000;

export function startAuditChainJobs({
  checkpointEveryMs = MINUTE_MS,
  checkEveryMs = 60 * MINUTE_MS,
}: {
  checkpointEveryMs?: number;
  checkEveryMs?: number;
} = {}): StopPeriodicJobs {
  return startPeriodicJobs(
    'audit-chain',
    [
      { name: 'audit checkpoint', firstRunAfterMs: checkpointEveryMs, everyMs: checkpointEveryMs, run: () => signCheckpointIfDue() },
      // A whole chain of millions takes a while: the lease is renewed while it runs.
      { name: 'audit chain check', firstRunAfterMs: 0, everyMs: checkEveryMs, run: () => checkAuditChain() },
    ],
    { db: getDb, table: jobLeases },
  );
}
