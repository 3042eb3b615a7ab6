// Retention of the dashboard's register: a request's row goes when the service's record is
// purged (its kept_until passes), so the register never keeps personal data (the requested and
// identified names) longer than the service itself. The lead's scheduler calls this periodically;
// the webhook receiver also removes rows as soon as the service reports a purge.
import 'server-only';
import { and, isNotNull, lte } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { verificationRequests } from '@/lib/db/schema';
import { forgetRegisterEntries } from './cache.server';

/** Deletes register rows whose kept_until is at or before `now`; returns how many went. */
export async function purgeExpiredRegisterEntries(now: Date = new Date()): Promise<number> {
  const db = await getDb();
  const count = await db.transaction(async (tx) => {
    // Rows without kept_until (never read back from the service) stay: nothing says when to go.
    const removed = await tx
      .delete(verificationRequests)
      .where(and(isNotNull(verificationRequests.keptUntil), lte(verificationRequests.keptUntil, now)))
      .returning({ verificationId: verificationRequests.verificationId });
    // One entry per id, in the same transaction: the trail says which request left the register
    // and why, and cannot disagree with it.
    for (const { verificationId } of removed) {
      await recordAudit(
        {
          actorId: null,
          action: 'verification.removed',
          target: { type: 'verification', id: verificationId },
          details: { reason: 'retention' },
        },
        tx,
      );
    }
    return removed.length;
  });
  forgetRegisterEntries(db);
  return count;
}
