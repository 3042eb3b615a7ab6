// Keyset pagination for the register and the audit trail: a page link names the sort key of the
// row it continues from, so every page is an index range that costs what the first page does,
// and rows added meanwhile (newer than any page shown) never shift the pages after it.
//
// A cursor is the sort key's values joined by `~`, each time in UTC ISO 8601 to the microsecond
// (2026-03-01T09:15:02.123456Z), the id last: an id is opaque and may hold a `~` itself, a time
// cannot. Times are printed and compared by Postgres, never through a JS Date, which would round
// them to the millisecond and make the next page repeat or skip rows.
// `?after=` continues past the last row shown (older rows), `?before=` goes back from the first.
import { type Column, type SQL, sql } from 'drizzle-orm';

export type KeyKind = 'time' | 'text' | 'uuid';

/** One column of a sort order. */
export type SortKey = { column: Column | SQL; direction: 'asc' | 'desc'; kind: KeyKind };

/** Which way a page goes from its cursor. */
export type PageSide = 'after' | 'before';

export type PageCursor = { side: PageSide; values: string[] };

/** The time in the cursor's form, printed by Postgres (to the microsecond, in UTC). */
export function cursorTime(column: Column | SQL): SQL<string> {
  return sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The columns that make up a row's cursor, for a select. */
export function cursorColumn(keys: readonly SortKey[]): SQL<string> {
  const parts = keys.map((key) => (key.kind === 'time' ? cursorTime(key.column) : sql`${key.column}::text`));
  return sql<string>`concat_ws('~', ${sql.join(parts, sql`, `)})`;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Ids are opaque but printable; a NUL would make Postgres refuse the whole query.
const TEXT = /^[^\u0000-\u001f\u007f]{1,200}$/;

/** A real instant (no 30 February, no hour 24), in the years Postgres and every reader agree on. */
function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  if (year < 1) return false;
  const at = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  at.setUTCFullYear(year);
  return (
    at.getUTCFullYear() === year &&
    at.getUTCMonth() === month - 1 &&
    at.getUTCDate() === day &&
    at.getUTCHours() === hour &&
    at.getUTCMinutes() === minute &&
    at.getUTCSeconds() === second
  );
}

function isValue(kind: KeyKind, text: string): boolean {
  if (kind === 'time') return isTime(text);
  if (kind === 'uuid') return UUID.test(text);
  return TEXT.test(text);
}

/**
 * A cursor's values for these keys, or undefined when it is not one (a link typed by hand, cut
 * short, or made for another view). Everything before the last key is split off at `~`; the last
 * key takes the rest. Nothing here throws, and nothing that passes can make the query fail.
 */
export function parseCursor(text: string | undefined, kinds: readonly KeyKind[]): string[] | undefined {
  if (text === undefined || kinds.length === 0) return undefined;
  const values: string[] = [];
  let rest = text;
  for (const kind of kinds.slice(0, -1)) {
    const at = rest.indexOf('~');
    if (at < 0) return undefined;
    const value = rest.slice(0, at);
    if (!isValue(kind, value)) return undefined;
    values.push(value);
    rest = rest.slice(at + 1);
  }
  if (!isValue(kinds[kinds.length - 1]!, rest)) return undefined;
  values.push(rest);
  return values;
}

type RawParams = Record<string, string | string[] | undefined>;

/**
 * The page position in a query string: `after` or `before` (one of them; `after` wins if both
 * came). `problem` is set when a cursor was there but was not understood: the first page is shown.
 */
export function readPagePosition(params: RawParams, kinds: readonly KeyKind[]): { cursor?: PageCursor; problem: boolean } {
  for (const side of ['after', 'before'] as const) {
    const raw = params[side];
    const text = Array.isArray(raw) ? raw[0] : raw;
    if (text === undefined || text === '') continue;
    const values = parseCursor(text, kinds);
    return values ? { cursor: { side, values }, problem: false } : { problem: true };
  }
  return { problem: false };
}

export const PAGE_LINK_PROBLEM = 'The page link was not understood, so the first page is shown.';

function cast(kind: KeyKind, value: string): SQL {
  if (kind === 'time') return sql`${value}::timestamptz`;
  if (kind === 'uuid') return sql`${value}::uuid`;
  return sql`${value}`;
}

function flipped(direction: SortKey['direction'], side: PageSide): SortKey['direction'] {
  return side === 'after' ? direction : direction === 'asc' ? 'desc' : 'asc';
}

/**
 * Rows strictly past `values` in the order `keys` (read backwards for `before`). Keys that run the
 * same way compare as one row value, which a b-tree index on them serves as a range; a change of
 * direction (the expiring view: deadline ascending, then newest first) splits into "past on this
 * key, or equal on it and past on the rest".
 */
export function keysetCondition(keys: readonly SortKey[], values: readonly string[], side: PageSide): SQL {
  const direction = flipped(keys[0]!.direction, side);
  let same = 1;
  while (same < keys.length && keys[same]!.direction === keys[0]!.direction) same += 1;
  const op = sql.raw(direction === 'desc' ? '<' : '>');
  const head = keys.slice(0, same);
  const left = sql.join(
    head.map((key) => sql`${key.column}`),
    sql`, `,
  );
  const right = sql.join(
    head.map((key, i) => cast(key.kind, values[i]!)),
    sql`, `,
  );
  const past = same === 1 ? sql`${left} ${op} ${right}` : sql`(${left}) ${op} (${right})`;
  if (same === keys.length) return past;
  const equal = sql`(${left}) = (${right})`;
  return sql`(${past} or (${equal} and ${keysetCondition(keys.slice(same), values.slice(same), side)}))`;
}

/** The ORDER BY for a page on this side of its cursor (reversed for `before`; the caller reverses the rows back). */
export function keysetOrder(keys: readonly SortKey[], side: PageSide): SQL[] {
  return keys.map((key) => sql`${key.column} ${sql.raw(flipped(key.direction, side))}`);
}

/** Where the links beside a page lead: `before`/`after` cursors, or `{}` for the first page. */
export type PageLinks = { newer?: { before?: string }; older?: { after: string } };

/**
 * One page from rows fetched with `keysetOrder` and a limit of `size + 1` (the extra row says
 * whether there is more that way). A `before` page that reaches the start is shown as the first
 * page instead, so it is always full: `refetchFirst` reads it.
 */
export async function pageFrom<Row extends { cursor: string }>(
  rows: Row[],
  size: number,
  cursor: PageCursor | undefined,
  refetchFirst: () => Promise<Row[]>,
): Promise<{ rows: Row[]; links: PageLinks }> {
  const more = rows.length > size;
  const page = rows.slice(0, size);
  if (cursor?.side === 'before') {
    if (!more) return pageFrom(await refetchFirst(), size, undefined, refetchFirst);
    page.reverse();
    return { rows: page, links: { newer: { before: page[0]!.cursor }, older: { after: page[page.length - 1]!.cursor } } };
  }
  const links: PageLinks = {};
  if (more) links.older = { after: page[page.length - 1]!.cursor };
  // Past the end (every older row purged meanwhile), "Newer" still leads somewhere: the first page.
  if (cursor) links.newer = page.length > 0 ? { before: page[0]!.cursor } : {};
  return { rows: page, links };
}

/** A page link's query parameter, appended to a filter's own query string. */
export function withPosition(query: string, position: { before?: string } | { after: string } | undefined): string {
  const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  if (position && 'after' in position) params.set('after', position.after);
  else if (position?.before) params.set('before', position.before);
  const text = params.toString();
  return text ? `?${text}` : '';
}
