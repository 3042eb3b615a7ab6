// Purges of unbounded size in bounded steps. A retention job may find a million rows due at once
// (a first run, a long outage, a lowered retention): deleted in one statement, they would hold
// their row locks, and on the embedded store the only connection, for minutes, and every page
// would wait. Deleted a batch per statement or transaction instead, each step is short, and the
// queries that queued meanwhile run between two steps. Between two steps the purge also rests as
// long as the step took: on a small machine a purge that runs back to back keeps a core (the
// database's) busy for its whole length, and the pages served meanwhile queue behind its steps.
// At half duty a purge of a million rows takes twice as long, which an hourly job can afford.
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { rowsOf } from './database';

/**
 * Rows per step: each is one short transaction, which a page served meanwhile may wait behind.
 * Measured at 200k rows on 2 cores (the bench's data-scale phase, a purge of 30k rows), the
 * register page's worst over its p50 was 153 ms with steps of 1,000 rows (with their audit
 * entries), 111 ms with 250 and 110 ms with 100, whose purge took 36 s instead of 21: below 250
 * a page no longer waits for a step but shares the two cores with the purge's work itself.
 */
export const PURGE_BATCH_SIZE = 250;

export type PurgeBatchOptions = {
  batchSize?: number;
  /** The rest after each step, as a share of the step's duration (0: only a turn of the event loop). */
  restRatio?: number;
};

/** Rest as long as each step took: the purge takes at most half of the time it runs. */
export const PURGE_REST_RATIO = 1;

/** At most this long a rest, so that a step slowed by a stall elsewhere does not idle the purge. */
const MAX_REST_MS = 1000;

/**
 * Runs `step(limit)` until a step removes fewer than `limit` rows; returns the total removed.
 * Each step must be its own transaction (one statement, or one `db.transaction`) that removes
 * at most `limit` rows and says how many it removed.
 */
export async function purgeInBatches(
  step: (limit: number) => Promise<number>,
  { batchSize = PURGE_BATCH_SIZE, restRatio = PURGE_REST_RATIO }: PurgeBatchOptions = {},
): Promise<number> {
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error(`purgeInBatches: batchSize must be a positive integer, not ${batchSize}`);
  if (!(restRatio >= 0)) throw new Error(`purgeInBatches: restRatio must be zero or more, not ${restRatio}`);
  let total = 0;
  for (;;) {
    const started = performance.now();
    const removed = await step(batchSize);
    total += removed;
    if (removed < batchSize) return total;
    // Let the work that waited for this step (requests' queries) go first, then rest.
    await new Promise((resolve) => setImmediate(resolve));
    const restMs = Math.min((performance.now() - started) * restRatio, MAX_REST_MS);
    if (restMs >= 1) await new Promise((resolve) => setTimeout(resolve, restMs));
  }
}

type SqlRunner = { execute: (query: SQL) => Promise<unknown> };

/**
 * One step of a purge as a single statement: deletes at most `limit` rows of `table` matching
 * `where`, by their key `key`, taken in `orderBy` order (an indexed column, so each step reads
 * only what it deletes) or, without one, the first the scan meets (the oldest rows, first in
 * the table). Returns how many went.
 */
export async function deleteBatch(
  db: SqlRunner,
  { table, key, where, orderBy, limit }: { table: PgTable; key: AnyPgColumn; where: SQL; orderBy?: SQL | AnyPgColumn; limit: number },
): Promise<number> {
  const rows = rowsOf<{ one: number }>(
    await db.execute(sql`
      delete from ${table}
      where ${key} in (select ${key} from ${table} where ${where} ${orderBy ? sql`order by ${orderBy}` : sql``} limit ${limit})
      returning 1 as one`),
  );
  return rows.length;
}
