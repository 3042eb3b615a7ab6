// A sliding-window rate limit kept in the database, so that every instance sharing it counts the
// same events: a limit of 30 a minute stays 30 whichever instance each request lands on. The
// decision is the in-memory limiter's (sliding-window-limiter.ts): exact (no double burst at a
// window's edge), a refused event is not counted, and a repeat of an event id inside the window
// is free.
//
// One row per allowed event. Each decision takes a per-key advisory lock for its transaction,
// so the deciding statement of one request sees every event committed by the requests before it
// (a plain count-then-insert would let simultaneous requests on two instances all see 29). The
// statement also deletes the key's rows that have left the window; keys that are never seen
// again are left to a periodic sweep (`purgeRateLimitEvents`).
//
// The table is the caller's (this module does not know either half's schema); it must have the
// columns key text, event_id text null, at timestamptz, with an index on (key, at).
import 'server-only';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { KEYED_LOCK_NAMESPACE } from '@/lib/platform/advisory-locks';
import { type Database, rowsOf } from '@/lib/platform/database';
import type { RateLimitDecision } from '@/lib/platform/sliding-window-limiter';

export type { RateLimitDecision };

type AnyDatabase = Database<Record<string, unknown>>;

export type SharedRateLimiterOptions = {
  /** Keeps this limiter's keys apart from other limiters' in the same table. */
  name: string;
  /** A function, so that a configured value is read when used, not when created. */
  limit: number | (() => number);
  windowMs: number;
  db: () => Promise<AnyDatabase>;
  table: PgTable;
};

export type SharedRateLimiter = {
  /**
   * Counts one event for `key` if it fits into the window. `eventId` makes a repeat of the same
   * event (a double submission) free while the first is inside the window. `now` is for tests;
   * by default the database's clock decides, so instances whose clocks drift still agree.
   */
  take(key: string, options?: { eventId?: string; now?: number }): Promise<RateLimitDecision>;
};

type Verdict = { used: number; repeat: boolean; added: number; wait_ms: number | string | null };

export function createSharedRateLimiter({ name, limit, windowMs, db, table }: SharedRateLimiterOptions): SharedRateLimiter {
  const window = sql`(${windowMs}::double precision * interval '1 millisecond')`;
  return {
    async take(key, { eventId, now } = {}) {
      const max = typeof limit === 'function' ? limit() : limit;
      const fullKey = `${name}:${key}`;
      const clock = now === undefined ? sql`clock_timestamp()` : sql`${new Date(now).toISOString()}::timestamptz`;
      const handle = await db();
      const verdict = await handle.transaction(async (tx) => {
        // Its own statement: the next one's snapshot must be taken after the lock is held.
        // The commit need not wait for the disk: others see the event at commit either way, and
        // a crash can lose at most the last moment's events (a few extra attempts allowed), so
        // a limit that sits in front of every create does not add a WAL flush to each.
        await tx.execute(sql`
          select set_config('synchronous_commit', 'off', true),
            pg_advisory_xact_lock(${KEYED_LOCK_NAMESPACE.rateLimit}, hashtext(${fullKey}))
        `);
        // An event at exactly now - window has left it (that makes the retry-after exact). The
        // limit-th newest event is the one whose leaving frees the next slot.
        const [row] = rowsOf<Verdict>(
          await tx.execute(sql`
            with clock as materialized (select ${clock} as now),
            expired as (
              delete from ${table} where key = ${fullKey} and at <= (select now from clock) - ${window}
            ),
            live as (
              select at, event_id from ${table} where key = ${fullKey} and at > (select now from clock) - ${window}
            ),
            verdict as (
              select count(*)::int as used,
                coalesce(bool_or(event_id = ${eventId ?? null}::text), false) as repeat,
                (select at from live order by at desc offset ${Math.max(0, max - 1)}::int limit 1) as frees_from
              from live
            ),
            added as (
              insert into ${table} (key, event_id, at)
              select ${fullKey}, ${eventId ?? null}::text, (select now from clock) from verdict
              where not verdict.repeat and verdict.used < ${max}::int
              returning 1
            )
            select verdict.used, verdict.repeat, (select count(*) from added)::int as added,
              extract(epoch from (verdict.frees_from + ${window} - clock.now)) * 1000 as wait_ms
            from verdict, clock
          `),
        );
        return row!;
      });
      if (verdict.repeat || verdict.added > 0) return { allowed: true };
      // Whole seconds, rounded up, at least 1: Retry-After is whole seconds, and "0" would invite
      // an immediate, refused retry.
      const waitMs = Number(verdict.wait_ms ?? windowMs);
      return { allowed: false, limit: max, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}

/**
 * Removes events older than `keptMs` in `table`, whatever their key: the per-key delete above
 * only runs when a key is seen again. `keptMs` must be at least the longest window of the
 * limiters sharing the table. Returns how many rows went.
 */
export async function purgeRateLimitEvents(db: AnyDatabase, table: PgTable, keptMs: number): Promise<number> {
  const rows = rowsOf<{ id: unknown }>(
    await db.execute(sql`
      delete from ${table} where at < clock_timestamp() - (${keptMs}::double precision * interval '1 millisecond') returning 1 as id
    `),
  );
  return rows.length;
}
