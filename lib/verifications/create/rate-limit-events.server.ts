// The dashboard's rate limits that every instance must count together (the create limit, the
// link-copy audit limit): kept in the table rate_limit_events (lib/platform/shared-rate-limit.ts),
// and that table's retention. The read limit stays in each process's memory
// (record/read-rate-limit.server.ts): it is checked on every read, where a database round trip would cost more
// than the read it guards.
import 'server-only';
import { getDb } from '@/lib/db';
import { rateLimitEvents } from '@/lib/db/schema';
import { createSharedRateLimiter, purgeRateLimitEvents, type SharedRateLimiter } from '@/lib/platform/shared-rate-limit';

type LimiterHandle = Parameters<typeof createSharedRateLimiter>[0]['db'];

/** The longest window of the limiters below. */
const LONGEST_WINDOW_MS = 60_000;

/** Rows are kept well past the longest window: the sweep must never remove an event still counted. */
export const RATE_LIMIT_EVENTS_KEPT_MS = 60 * LONGEST_WINDOW_MS;

export function dashboardRateLimiter(
  options: { name: string; limit: number | (() => number); windowMs: number },
  db: LimiterHandle = getDb,
): SharedRateLimiter {
  if (options.windowMs > LONGEST_WINDOW_MS) throw new Error(`A shared limit's window may be at most ${LONGEST_WINDOW_MS} ms`);
  // rate_limit_take: lib/db/migrations/0006_rate_limit_take.sql, written for this table.
  return createSharedRateLimiter({ ...options, db, table: rateLimitEvents, takeFunction: 'rate_limit_take' });
}

/** Removes the events of keys that were never seen again after their window (the per-key delete only runs when a key comes back). */
export async function purgeOldRateLimitEvents(): Promise<number> {
  return purgeRateLimitEvents(await getDb(), rateLimitEvents, RATE_LIMIT_EVENTS_KEPT_MS);
}
