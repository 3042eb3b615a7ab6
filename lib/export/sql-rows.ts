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

/** Zones whose offset is always zero, written with "Z" exactly as isoTimestamp writes them. */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu']);

/** The zone as a header names it: UTC under any of its names. */
export function zoneLabel(timeZone: string): string {
  return UTC_NAMES.has(timeZone) ? 'UTC' : timeZone;
}

/**
 * A timestamp as ISO 8601 in `timeZone`, to the millisecond, with that moment's offset
 * ("2030-06-15T14:00:00.000+02:00"): the clock the page showed, and still one exact instant
 * across a daylight-saving change. In UTC, exactly isoTimestamp's form.
 */
export function zonedTimestamp(column: SQLWrapper, timeZone: string): SQL<string | null> {
  if (UTC_NAMES.has(timeZone)) return isoTimestamp(column);
  const local = sql`(${column} at time zone ${timeZone})`;
  const offset = sql`(${local} - (${column} at time zone 'UTC'))`;
  return sql<string | null>`(to_char(${local}, 'YYYY-MM-DD"T"HH24:MI:SS.MS')
    || case when ${offset} < interval '0' then '-' || to_char(-${offset}, 'HH24:MI') else '+' || to_char(${offset}, 'HH24:MI') end)`;
}
