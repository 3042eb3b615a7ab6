// The verification lifecycle of the sandbox: pending → completed | failed | expired, each at
// most once, then purge at kept_until. Every change writes its webhook event in the same
// transaction, so an event exists exactly when the change it reports was committed.
// Every function takes the time explicitly: tests (and the jobs) control the clock.
import 'server-only';
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import { deleteBatch, purgeInBatches } from '@/lib/platform/batched-purge';
import { logger } from '@/lib/platform/log';
import { flushApiAuditLog } from '@/lib/sandbox/api/api-audit';
import type { SandboxDb, SandboxTx } from '@/lib/sandbox/db';
import { apiAuditLog, companies, verifications } from '@/lib/sandbox/schema';
import { enqueueVerificationEvent, type VerificationEventType } from '@/lib/sandbox/webhook-sender/enqueue';
import { kickWebhookDelivery } from '@/lib/sandbox/webhook-sender/worker';
import { recordCacheOf } from './record-cache';

const log = logger.child({ area: 'sandbox' });

/**
 * The methods a person can complete with. `itsme` (a mobile identity app) and `bank_id` (a bank
 * identity service) stand in for the two third-party providers whose real values the contract omits (§2.3).
 */
export const VERIFICATION_METHODS = ['passport', 'id_card', 'drivers_license', 'itsme', 'bank_id'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/** Why a verification failed: a code for forms, and the readable English text stored in failed_reason. */
export const FAILURE_REASON_CODES = ['document_expired', 'name_mismatch', 'person_declined', 'document_unreadable', 'other'] as const;
export type FailureReason = (typeof FAILURE_REASON_CODES)[number];

export const FAILURE_REASONS: Record<FailureReason, string> = {
  document_expired: 'Document expired',
  name_mismatch: 'Name mismatch',
  person_declined: 'Person declined',
  document_unreadable: 'Document unreadable',
  other: 'Other reason',
};

/** The code of a stored failed_reason text, for showing it in the person's language. */
export function failureReasonCode(text: string | null): FailureReason | undefined {
  return FAILURE_REASON_CODES.find((code) => FAILURE_REASONS[code] === text);
}

export type TerminalStatus = 'completed' | 'failed' | 'expired';

const EVENT_OF: Record<TerminalStatus, VerificationEventType> = {
  completed: 'verification.completed',
  failed: 'verification.failed',
  expired: 'verification.expired',
};

type Change =
  | { status: 'completed'; identifiedName: string; verificationMethod: VerificationMethod }
  | { status: 'failed'; failedReason: string }
  | { status: 'expired' };

/**
 * Moves one pending verification to a terminal state. The UPDATE itself carries the condition
 * (`status = 'pending'` and the timing rule), so of two concurrent transitions exactly one
 * matches the row; the other changes nothing and reports false.
 *
 * The terminal time is `now` for an outcome the person chose, and access_expires_at for an
 * expiry: the request expired at that moment whenever the sweeper noticed, so kept_until does
 * not depend on when a background job ran.
 */
async function transition(db: SandboxDb, verificationId: string, change: Change, now: Date): Promise<boolean> {
  const changed = await db.transaction(async (tx) => {
    const [target] = await tx
      .select({
        companyId: verifications.companyId,
        accessExpiresAt: verifications.accessExpiresAt,
        retentionSeconds: companies.verificationRetentionSeconds,
      })
      .from(verifications)
      .innerJoin(companies, eq(companies.id, verifications.companyId))
      .where(eq(verifications.id, verificationId))
      .limit(1);
    if (!target) return false;

    const terminalTime = change.status === 'expired' ? target.accessExpiresAt : now;
    const timing =
      change.status === 'expired'
        ? // Due, and still retained when it expired: a record whose kept_until passed while it was
          // pending is already gone for the caller and must not come back through its expiry.
          and(lte(verifications.accessExpiresAt, now), gt(verifications.keptUntil, verifications.accessExpiresAt))
        : // The link still works: an outcome after access expired (even before the sweep) is refused.
          and(gt(verifications.accessExpiresAt, now), gt(verifications.keptUntil, now));

    const updated = await tx
      .update(verifications)
      .set({
        status: change.status,
        identifiedName: change.status === 'completed' ? change.identifiedName : null,
        identifiedDate: change.status === 'completed' ? now : null,
        verificationMethod: change.status === 'completed' ? change.verificationMethod : null,
        failedReason: change.status === 'failed' ? change.failedReason : null,
        keptUntil: new Date(terminalTime.getTime() + target.retentionSeconds * 1000),
        updatedAt: now,
      })
      .where(and(eq(verifications.id, verificationId), eq(verifications.status, 'pending'), timing))
      .returning({ id: verifications.id });
    if (updated.length === 0) return false;

    await enqueueVerificationEvent(tx, {
      companyId: target.companyId,
      verificationId,
      type: EVENT_OF[change.status],
      status: change.status,
      now,
    });
    return true;
  });
  if (changed) {
    // Committed: readers must see the change before anyone can learn of it from the event.
    recordCacheOf(db).invalidate(verificationId);
    // The delivery worker (if one runs) sends the event now rather than at its next tick.
    kickWebhookDelivery();
  }
  return changed;
}

/** The person completed the verification with `method`; true when this call made the change. */
export function completeVerification(
  db: SandboxDb,
  {
    verificationId,
    method,
    identifiedName,
    now,
  }: {
    verificationId: string;
    method: VerificationMethod;
    identifiedName: string;
    now: Date;
  },
): Promise<boolean> {
  return transition(db, verificationId, { status: 'completed', identifiedName, verificationMethod: method }, now);
}

/** The verification failed for `reason`; no method is recorded. True when this call made the change. */
export function failVerification(
  db: SandboxDb,
  { verificationId, reason, now }: { verificationId: string; reason: FailureReason; now: Date },
): Promise<boolean> {
  return transition(db, verificationId, { status: 'failed', failedReason: FAILURE_REASONS[reason] }, now);
}

/** Expires one pending verification if its access has expired; a no-op otherwise. */
export function expireVerificationIfDue(db: SandboxDb, { verificationId, now }: { verificationId: string; now: Date }): Promise<boolean> {
  return transition(db, verificationId, { status: 'expired' }, now);
}

/** The same rule as the expiry's UPDATE, for readers deciding whether to run it. */
export function isExpiryDue(row: { status: string; accessExpiresAt: Date; keptUntil: Date }, now: Date): boolean {
  return (
    row.status === 'pending' && row.accessExpiresAt.getTime() <= now.getTime() && row.keptUntil.getTime() > row.accessExpiresAt.getTime()
  );
}

const BATCH = 100;

/**
 * The sweeper: every pending request whose access has expired becomes expired, with its
 * `verification.expired` event. One short transaction per record, so a large backlog never
 * holds a long lock, and one broken record is logged and skipped rather than blocking the rest.
 * Returns how many records this call expired.
 */
export async function expireDuePendingVerifications(db: SandboxDb, now: Date): Promise<number> {
  let expired = 0;
  const skipped = new Set<string>();
  for (;;) {
    const due = await db
      .select({ id: verifications.id })
      .from(verifications)
      .where(
        and(
          eq(verifications.status, 'pending'),
          lte(verifications.accessExpiresAt, now),
          gt(verifications.keptUntil, verifications.accessExpiresAt),
        ),
      )
      .orderBy(asc(verifications.accessExpiresAt), asc(verifications.id))
      .limit(BATCH + skipped.size);
    const batch = due.filter((row) => !skipped.has(row.id)).slice(0, BATCH);
    let progressed = false;
    for (const { id } of batch) {
      try {
        if (await expireVerificationIfDue(db, { verificationId: id, now })) {
          expired += 1;
          progressed = true;
        } else {
          // Changed by someone else since it was read: never select it again in this sweep.
          skipped.add(id);
        }
      } catch (error) {
        skipped.add(id);
        log.error({ err: error, verificationId: id }, 'expiring a verification failed');
      }
    }
    if (batch.length < BATCH || !progressed) return expired;
  }
}

export type PurgeResult = { verifications: number; auditLogEntries: number };

/**
 * The retention purge (contract §1, §8): verification records past kept_until are deleted (their
 * outbox messages go with them by cascade), each with a `verification.purged` event written in
 * the same transaction (webhook messages do not reference the record, so the event outlives
 * it); and API audit-log entries older than their company's audit retention are deleted.
 */
export async function purgeExpiredData(db: SandboxDb, now: Date): Promise<PurgeResult> {
  let purged = 0;
  const skipped = new Set<string>();
  for (;;) {
    const due = await db
      .select({ id: verifications.id })
      .from(verifications)
      .where(lte(verifications.keptUntil, now))
      .orderBy(asc(verifications.keptUntil), asc(verifications.id))
      .limit(BATCH + skipped.size);
    const batch = due.filter((row) => !skipped.has(row.id)).slice(0, BATCH);
    let progressed = false;
    for (const { id } of batch) {
      try {
        if (await purgeVerification(db, id, now)) {
          purged += 1;
          progressed = true;
        } else {
          skipped.add(id);
        }
      } catch (error) {
        skipped.add(id);
        log.error({ err: error, verificationId: id }, 'purging a verification failed');
      }
    }
    if (batch.length < BATCH || !progressed) break;
  }
  return { verifications: purged, auditLogEntries: await purgeApiAuditLog(db, now) };
}

async function purgeVerification(db: SandboxDb, verificationId: string, now: Date): Promise<boolean> {
  const purged = await db.transaction(async (tx: SandboxTx) => {
    // Conditional again: kept_until may have moved (an expiry) since the candidate was read.
    const [deleted] = await tx
      .delete(verifications)
      .where(and(eq(verifications.id, verificationId), lte(verifications.keptUntil, now)))
      .returning({ companyId: verifications.companyId });
    if (!deleted) return false;
    await enqueueVerificationEvent(tx, {
      companyId: deleted.companyId,
      verificationId,
      type: 'verification.purged',
      status: 'purged',
      now,
    });
    return true;
  });
  if (purged) {
    recordCacheOf(db).invalidate(verificationId);
    kickWebhookDelivery();
  }
  return purged;
}

/** Deletes audit-log entries at or past `at + the company's audit retention`; returns how many. */
async function purgeApiAuditLog(db: SandboxDb, now: Date): Promise<number> {
  // Rows still waiting in the write buffer are judged with the rest.
  await flushApiAuditLog();
  // One condition for every company: the cut-off differs per company, so Postgres computes it.
  // A batch per statement (lib/platform/batched-purge.ts): requests keep being logged meanwhile.
  const where = sql`${apiAuditLog.at} <= ${now.toISOString()}::timestamptz - (
    select ${companies.auditLogRetentionSeconds} from ${companies} where ${companies.id} = ${apiAuditLog.companyId}
  ) * interval '1 second'`;
  return purgeInBatches((limit) => deleteBatch(db, { table: apiAuditLog, key: apiAuditLog.id, where, limit }));
}
