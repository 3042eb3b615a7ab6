// What an export selects, shaped so that the driver's rows need no work in JavaScript: each
// column named by its key (a plain object per row, without the ORM's per-cell mapping) and each
// timestamp already written as the file writes it, so no Date is parsed and printed again: on a
// server those two steps are most of an export's work in JavaScript.
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** `expr AS "key", …` for a raw select whose rows come back keyed as `columns` is. */
export function selectList(columns: Record<string, SQLWrapper>): SQL {
  return sql.join(
    Object.entries(columns).map(([key, expression]) => sql`${expression} as ${sql.identifier(key)}`),
    sql`, `,
  );
}

/**
 * A timestamp as `Date.prototype.toISOString()` writes it — UTC, to the millisecond, the
 * microseconds cut off as a Date parsed from Postgres's text cuts them — or null.
 */
export function isoTimestamp(column: SQLWrapper): SQL<string | null> {
  return sql<string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
