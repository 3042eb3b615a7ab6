// A sliding-window rate limit kept in the database, so that every instance sharing it counts the
// same events: a limit of 30 a minute stays 30 whichever instance each request lands on. The
// decision is the in-memory limiter's (sliding-window-limiter.ts): exact (no double burst at a
// window's edge), a refused event is not counted, and a repeat of an event id inside the window
// is free.
//
// One row per allowed event. Each decision takes a per-key advisory lock for its transaction,
// so the deciding statements of one request see every event committed by the requests before it
// (a plain count-then-insert would let simultaneous requests on two instances all see 29). The
// decision also deletes the key's rows that have left the window; keys that are never seen again
// are left to a periodic sweep (`purgeRateLimitEvents`).
//
// The lock and the decision run inside a SQL function of the caller's migrations (the dashboard's
// is rate_limit_take, lib/db/migrations/0006_rate_limit_take.sql): one round trip per decision
// rather than four, for a limit that sits in front of every create. The table is the caller's
// too (this module does not know either half's schema); it must have the columns key text,
// event_id text null, at timestamptz, with an index on (key, at).
import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { KEYED_LOCK_NAMESPACE } from '@/lib/platform/advisory-locks';
import { type PurgeBatchOptions, purgeInBatches } from '@/lib/platform/batched-purge';
import { type Database, preparedStatement, rowsOf } from '@/lib/platform/database';
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
  /** The events' table, for the sweep. */
  table: PgTable;
  /**
   * The SQL function that locks the key and decides, on that table: (lock namespace integer, key
   * text, event id text, max integer, window ms double precision, at timestamptz) returning
   * used integer, repeat boolean, added integer, wait_ms double precision.
   */
  takeFunction: string;
};

export type TakeOptions = { eventId?: string; now?: number };

/** A decision that refused: how long until a slot frees, and the limit that was reached. */
export type RateLimitRefusal = Extract<RateLimitDecision, { allowed: false }>;

/** The row a decision returns, as the SQL function gives it. */
export type RateLimitVerdict = { used: number; repeat: boolean; added: number; wait_ms: number | string | null };

/**
 * One decision as a query, for a caller that runs it inside a statement of its own (a WITH part)
 * so that what depends on the decision is written in the same round trip. `decide` reads the row.
 */
export type RateLimitTake = {
  /**
   * Selects the verdict (one row). Its text is the same for every decision of a limiter (the
   * decision's values are placeholders, filled from `values`), so it is prepared once per
   * database, and a caller that runs it inside a statement of its own can prepare that once too.
   */
  query: SQL;
  values: Record<string, unknown>;
  decide(verdict: RateLimitVerdict): RateLimitDecision;
};

export type SharedRateLimiter = {
  /**
   * Counts one event for `key` if it fits into the window. `eventId` makes a repeat of the same
   * event (a double submission) free while the first is inside the window. `now` is for tests;
   * by default the database's clock decides, so instances whose clocks drift still agree.
   */
  take(key: string, options?: TakeOptions): Promise<RateLimitDecision>;
  /** The same decision, not yet run: `query` with `values` selects its verdict (one row), `decide` reads it. */
  takeQuery(key: string, options?: TakeOptions): RateLimitTake;
};

// One query object per SQL function, whichever limiter uses it: a limiter is cheap to make (the
// create makes one per call) and its prepared statement must be found again (database.ts).
const TAKE_STATEMENTS = new Map<string, SQL>();

function takeStatement(takeFunction: string): SQL {
  let query = TAKE_STATEMENTS.get(takeFunction);
  if (!query) {
    query = sql`
      select used, repeat, added, wait_ms from ${sql.identifier(takeFunction)}(
        ${KEYED_LOCK_NAMESPACE.rateLimit}::integer, ${sql.placeholder('rateLimitKey')}::text, ${sql.placeholder('rateLimitEventId')}::text,
        ${sql.placeholder('rateLimitMax')}::integer, ${sql.placeholder('rateLimitWindowMs')}::double precision,
        ${sql.placeholder('rateLimitAt')}::timestamptz
      )`;
    TAKE_STATEMENTS.set(takeFunction, query);
  }
  return query;
}

export function createSharedRateLimiter({ name, limit, windowMs, db, takeFunction }: SharedRateLimiterOptions): SharedRateLimiter {
  const query = takeStatement(takeFunction);
  const takeQuery = (key: string, { eventId, now }: TakeOptions = {}): RateLimitTake => {
    const max = typeof limit === 'function' ? limit() : limit;
    // A null time lets the database's clock decide, read once the key's lock is held.
    const at = now === undefined ? null : new Date(now).toISOString();
    return {
      query,
      values: {
        rateLimitKey: `${name}:${key}`,
        rateLimitEventId: eventId ?? null,
        rateLimitMax: max,
        rateLimitWindowMs: windowMs,
        rateLimitAt: at,
      },
      decide(verdict) {
        if (verdict.repeat || verdict.added > 0) return { allowed: true };
        // Whole seconds, rounded up, at least 1: Retry-After is whole seconds, and "0" would invite
        // an immediate, refused retry.
        const waitMs = Number(verdict.wait_ms ?? windowMs);
        return { allowed: false, limit: max, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      },
    };
  };
  return {
    takeQuery,
    async take(key, options) {
      const { query, values, decide } = takeQuery(key, options);
      const statement = preparedStatement(await db(), `${takeFunction}_decision`, query);
      const [verdict] = rowsOf<RateLimitVerdict>(await statement.execute(values));
      if (!verdict) throw new Error(`${takeFunction} returned no row`);
      return decide(verdict);
    },
  };
}

/**
 * Removes events older than `keptMs` in `table`, whatever their key: the per-key delete above
 * only runs when a key is seen again. `keptMs` must be at least the longest window of the
 * limiters sharing the table. Returns how many rows went.
 */
export async function purgeRateLimitEvents(db: AnyDatabase, table: PgTable, keptMs: number, options?: PurgeBatchOptions): Promise<number> {
  // A batch per statement, oldest ids first: the table's key (id) is its only index that leads.
  return purgeInBatches(async (limit) => {
    const rows = rowsOf<{ id: unknown }>(
      await db.execute(sql`
        delete from ${table} where id in (
          select id from ${table}
          where at < clock_timestamp() - (${keptMs}::double precision * interval '1 millisecond')
          order by id
          limit ${limit})
        returning 1 as id
      `),
    );
    return rows.length;
  }, options);
}
