// Purges of unbounded size in bounded steps. A retention job may find a million rows due at once
// (a first run, a long outage, a lowered retention): deleted in one statement, they would hold
// their row locks, and on the embedded store the only connection, for minutes, and every page
// would wait. Deleted a batch per statement or transaction instead, each step is short, and the
// queries that queued meanwhile run between two steps.
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { rowsOf } from './database';

/** Rows per step: each is one short transaction; a million rows take a thousand of them. */
export const PURGE_BATCH_SIZE = 1000;

export type PurgeBatchOptions = { batchSize?: number };

/**
 * Runs `step(limit)` until a step removes fewer than `limit` rows; returns the total removed.
 * Each step must be its own transaction (one statement, or one `db.transaction`) that removes
 * at most `limit` rows and says how many it removed.
 */
export async function purgeInBatches(
  step: (limit: number) => Promise<number>,
  { batchSize = PURGE_BATCH_SIZE }: PurgeBatchOptions = {},
): Promise<number> {
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new Error(`purgeInBatches: batchSize must be a positive integer, not ${batchSize}`);
  let total = 0;
  for (;;) {
    const removed = await step(batchSize);
    total += removed;
    if (removed < batchSize) return total;
    // Let the work that waited for this step (requests' queries) go first.
    await new Promise((resolve) => setImmediate(resolve));
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
