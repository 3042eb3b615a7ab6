// Retention of the dashboard's register: a request's row goes when the service's record is
// purged (its kept_until passes), so the register never keeps personal data (the requested and
// identified names) longer than the service itself. The lead's scheduler calls this periodically;
// the webhook receiver also removes rows as soon as the service reports a purge. Until one of
// them has, a row past its kept_until reads "Purged" (purged.ts).
import 'server-only';
import { sql } from 'drizzle-orm';
import { recordAudits } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { verificationRequests } from '@/lib/db/schema';
import { type PurgeBatchOptions, purgeInBatches } from '@/lib/platform/batched-purge';
import { rowsOf } from '@/lib/platform/database';
import { forgetRegisterEntries } from './cache.server';

const r = verificationRequests;

/**
 * Deletes register rows whose kept_until is at or before `now`, the soonest due first, a batch
 * per transaction (lib/platform/batched-purge.ts) so that pages keep being served while a large
 * purge runs; returns how many went.
 */
export async function purgeExpiredRegisterEntries(now: Date = new Date(), options?: PurgeBatchOptions): Promise<number> {
  const db = await getDb();
  return purgeInBatches(async (limit) => {
    try {
      return await db.transaction(async (tx) => {
        // Rows without kept_until (never read back from the service) stay: nothing says when
        // to go. The batch is read through the kept_until index, only as far as it reaches.
        const removed = rowsOf<{ verificationId: string }>(
          await tx.execute(sql`
              delete from ${r}
              where ${r.verificationId} in (
                select ${r.verificationId} from ${r}
                where ${r.keptUntil} is not null and ${r.keptUntil} <= ${now.toISOString()}::timestamptz
                order by ${r.keptUntil}
                limit ${limit})
              returning ${r.verificationId} as "verificationId"`),
        );
        // One entry per id, in one insert in the same transaction: the trail says which request
        // left the register and why, and cannot disagree with it.
        await recordAudits(
          removed.map(({ verificationId }) => ({
            actorId: null,
            action: 'verification.removed' as const,
            target: { type: 'verification' as const, id: verificationId },
            details: { reason: 'retention' },
          })),
          tx,
        );
        return removed.length;
      });
    } finally {
      // Between two batches, pages read the register: none may be served a purged row.
      forgetRegisterEntries(db);
    }
  }, options);
}
