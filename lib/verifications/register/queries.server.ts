// Reading the dashboard's register of the verification requests it created: one page of
// "Recent requests" (filtered, searched, newest first, paged by keyset: lib/db/keyset.ts), the
// quick views' counts, and one entry.
// What a filter means is filter.ts; this is how Postgres applies it.
import 'server-only';
import { and, desc, eq, getTableColumns, gt, gte, lt, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Db, getDb } from '@/lib/db';
import {
  cursorColumn,
  type KeyKind,
  keysetCondition,
  keysetOrder,
  type PageCursor,
  type PageLinks,
  pageFrom,
  type SortKey,
} from '@/lib/db/keyset';
import { nameReviews, staffUsers, type VerificationRequestRow, verificationRequests } from '@/lib/db/schema';
import { compactForSearch, escapedForLike, foldForSearch } from '@/lib/db/search-fold';
import { startOfDayIn, startOfNextDayIn } from '@/lib/time/display-time';
import { FALLBACK_TIME_ZONE } from '@/lib/time/time-zone';
import { couldStartUuid } from '@/lib/verification-service/contract/verification-id';
import { assigneeCondition } from '@/lib/verifications/assignment/assignee-condition.server';
import { readAssigneeFilter } from '@/lib/verifications/assignment/assignee-filter';
import type { NameReviewDecision } from '@/lib/verifications/review/labels';
import { needsReviewCondition } from '@/lib/verifications/review/needs-review.server';
import { readRegisterEntry } from './cache.server';
import { searchTermDigest } from './contact-digest.server';
import {
  CUSTOM_PURPOSE_FILTER,
  EXPIRING_WINDOW_MS,
  MINE,
  PREDEFINED_PURPOSE_VALUES,
  type RegisterFilter,
  type RegisterView,
  registerFilterSchema,
} from './filter';

/**
 * A request as the register's readers see it: every column but the contact hashes, which only the
 * search reads (a page never sends them to a browser).
 */
export type RegisterEntry = Omit<VerificationRequestRow, 'contactDigests'>;

/**
 * A row of the register's list: the entry; once staff have decided, the name review's outcome;
 * its creator's name (null once the account is gone); its assignee's name (null while nobody has
 * it); and the newest request that follows it up, if any (so that a follow-up and the request it
 * replaces do not read as duplicates).
 */
export type RegisterListEntry = RegisterEntry & {
  reviewDecision: NameReviewDecision | null;
  createdByName: string | null;
  assigneeName: string | null;
  followedUpBy: string | null;
};

/**
 * Results beyond this are not counted: "more than 10,000" says what a manager needs, and a count
 * that stops there reads at most this many index entries, however large the register grows.
 */
export const RESULT_COUNT_BOUND = 10_000;

/** The columns of a RegisterEntry. */
function entryColumns() {
  const { contactDigests: _onlySearched, ...shown } = getTableColumns(r);
  return shown;
}

export const REGISTER_PAGE_SIZE = 100;

const r = verificationRequests;
// The staff member who has the request: a second join of the staff table, beside the creator's.
const assignee = alias(staffUsers, 'assignee');

/** `\`, `%` and `_` taken literally inside a LIKE pattern (backslash is Postgres's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export type ListContext = {
  /** The clock, passed in so that "expiring" and "stuck" are testable. */
  now: Date;
  /** The signed-in staff member, for createdBy: 'mine'. */
  staffId?: string;
  /** The zone whose calendar days `from` and `to` are: the one the page shows times in (UTC if unset). */
  timeZone?: string;
  /**
   * The keyed hash of the search term when it is an e-mail address or a phone number
   * (withContactDigest, which the reads below call): the term is then looked up by it.
   */
  contactDigest?: string;
};

/** `context` with the hash of the filter's term, when that is an address or a number. */
export async function withContactDigest<T extends ListContext>(input: RegisterFilter, context: T): Promise<T> {
  const q = registerFilterSchema.parse(input).q;
  return q ? { ...context, contactDigest: await searchTermDigest(q) } : context;
}

/** Every condition of the filter except the view. */
function baseConditions(filter: RegisterFilter, { staffId, timeZone = FALLBACK_TIME_ZONE, contactDigest }: ListContext): SQL[] {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(r.status, filter.status));
  if (filter.purpose === CUSTOM_PURPOSE_FILTER) conditions.push(notInArray(r.purpose, PREDEFINED_PURPOSE_VALUES));
  else if (filter.purpose) conditions.push(eq(r.purpose, filter.purpose));
  if (filter.createdBy === MINE) {
    // Never silently widen "mine" to everyone's.
    if (!staffId) throw new Error('listRegister: createdBy "mine" needs the staff id');
    conditions.push(eq(r.createdBy, staffId));
  } else if (filter.createdBy) {
    conditions.push(eq(r.createdBy, filter.createdBy));
  }
  if (filter.assignee) {
    if (filter.assignee === MINE && !staffId) throw new Error('listRegister: assignee "mine" needs the staff id');
    // The queue's reading of the same words, and its condition, so both pages mean one thing.
    const condition = assigneeCondition(readAssigneeFilter(filter.assignee), staffId ?? '');
    if (condition) conditions.push(condition);
  }
  // Half-open ranges on created_at (an index): `to` includes the whole day, to the microsecond.
  if (filter.from) conditions.push(gte(r.createdAt, startOfDayIn(filter.from, timeZone)));
  if (filter.to) conditions.push(lt(r.createdAt, startOfNextDayIn(filter.to, timeZone)));
  if (filter.q) conditions.push(searchCondition(filter.q, contactDigest));
  return conditions;
}

/**
 * A search term matches a request when every word of it is inside its requested or identified
 * name, in any order, ignoring case, accents, spaces, hyphens and apostrophes
 * (lib/db/search-fold.ts): "verhaeghe joelle" finds "Joëlle Verhaeghe", "desmet" finds "De Smet".
 * Or when an id starts with it: ids are opaque, so a prefix is matched as written; a term that
 * could start a UUID is also matched in lowercase, the way UUIDs are kept
 * (lib/verification-service/contract/verification-id.ts). A term that is a whole e-mail address
 * or phone number is looked up by its keyed hash instead of in the names (contact-digest.server.ts).
 *
 * Every branch is a condition an index serves, so that a rare or absent name costs what a common
 * one does: each word through the trigram index on search_names (GIN reads the words' trigram
 * lists in one scan and intersects them), the id prefix through the text_pattern_ops index, the
 * hash through the GIN index of contact_digests. One case has no trigram to look up: a term whose
 * every word folds to one or two characters. It is still matched anywhere in the names (no
 * different rule for short terms), without an index: a common pair fills a page from the newest
 * requests at once, a rare or absent one reads the whole register. A short word beside a longer
 * one ("de smet") costs nothing more: the longer word's trigrams find the rows, the short one is
 * checked on those.
 */
function searchCondition(q: string, contactDigest: string | undefined): SQL {
  const names = contactDigest === undefined ? nameBranches(q) : [contactBranch(contactDigest)];
  return or(...names, ...idPrefixBranches(q))!;
}

/**
 * The term's words, split where a name's separators are (which the folded names leave out
 * anyway: search-fold.ts) and at commas, as in "Verhaeghe, Joëlle".
 */
function searchWords(q: string): string[] {
  return q.split(/[\s,;\-\u2010-\u2014'\u2018\u2019\u02bc`]+/u).filter((word) => word !== '');
}

function nameBranches(q: string): SQL[] {
  // Each word folded by the database, in the same expressions as the column. The query's
  // parameters are known when it is planned, so Postgres folds each word once, to a constant the
  // trigram index can take (a subquery would hide it from the planner).
  const words = searchWords(q).map((word) => {
    const pattern = sql`'%' || ${escapedForLike(compactForSearch(foldForSearch(sql`${word}::text`)))} || '%'`;
    return sql`${r.searchNames} LIKE ${pattern} ESCAPE '\\'`;
  });
  // Separators alone ("-") are no name: only an id may start with them.
  return words.length > 0 ? [and(...words)!] : [];
}

function contactBranch(digest: string): SQL {
  return sql`${r.contactDigests} @> array[${digest}::text]`;
}

function idPrefixBranches(q: string): SQL[] {
  const prefixes = couldStartUuid(q) && q.toLowerCase() !== q ? [q, q.toLowerCase()] : [q];
  return prefixes.map((prefix) => sql`${r.verificationId} LIKE ${`${escapeLike(prefix)}%`} ESCAPE '\\'`);
}

// ── The quick views in SQL (isExpiringSoon and isStuck in filter.ts must agree) ──────

// Both views start with status = 'pending' and a lower bound on access_expires_at, a range of the
// partial index of pending requests, which also holds created_at, all that "stuck" checks.
function pendingUnexpired(now: Date): SQL {
  return and(eq(r.status, 'pending'), gt(r.accessExpiresAt, now))!;
}

function expiringCondition(now: Date): SQL {
  return lte(r.accessExpiresAt, new Date(now.getTime() + EXPIRING_WINDOW_MS));
}

// Past the middle of the validity: now − created > expires − now. Written without dividing an
// interval, so the boundary is exact (at the middle itself it is not stuck yet).
function stuckCondition(now: Date): SQL {
  const at = sql`${now.toISOString()}::timestamptz`;
  return sql`(${at} - ${r.createdAt}) > (${r.accessExpiresAt} - ${at})`;
}

function viewConditions(view: RegisterView | undefined, now: Date): SQL[] {
  if (view === 'expiring') return [pendingUnexpired(now), expiringCondition(now)];
  if (view === 'stuck') return [pendingUnexpired(now), stuckCondition(now)];
  if (view === 'review') return [needsReviewCondition()];
  return [];
}

/** The WHERE conditions of a filter, view included (also used by the CSV export, lib/export). */
export function registerConditions(input: RegisterFilter, context: ListContext): SQL[] {
  const filter = registerFilterSchema.parse(input);
  return [...baseConditions(filter, context), ...viewConditions(filter.view, context.now)];
}

// ── Reads ─────────────────────────────────────────────────────────────────────────────────────

/** The register's order: newest first, the id breaking ties; the "expiring" view puts the soonest deadline first. */
export function registerSortKeys(view: RegisterView | undefined): SortKey[] {
  const newestFirst: SortKey[] = [
    { column: r.createdAt, direction: 'desc', kind: 'time' },
    { column: r.verificationId, direction: 'desc', kind: 'text' },
  ];
  return view === 'expiring' ? [{ column: r.accessExpiresAt, direction: 'asc', kind: 'time' }, ...newestFirst] : newestFirst;
}

/** What a register cursor holds for a view: `<created_at>~<id>`, or `<access_expires_at>~<created_at>~<id>`. */
export function registerCursorKinds(view: RegisterView | undefined): KeyKind[] {
  return registerSortKeys(view).map((key) => key.kind);
}

/** A row of a page, with the cursor that continues from it. */
export type RegisterPageEntry = RegisterListEntry & { cursor: string };

type ListOptions = ListContext & { limit?: number; position?: PageCursor };

/** The query behind listRegister, unrun (its plan is checked in search-index.test.ts). */
export function registerListQuery(
  db: Pick<Db, 'select'>,
  input: RegisterFilter,
  { limit = REGISTER_PAGE_SIZE, position, ...context }: ListOptions,
) {
  const filter = registerFilterSchema.parse(input);
  const keys = registerSortKeys(filter.view);
  const conditions = registerConditions(filter, context);
  if (position) conditions.push(keysetCondition(keys, position.values, position.side));
  // The review is one row per request at most (its key), and the creator and the assignee one
  // account each (the staff table's key), so the joins never repeat a request.
  return db
    .select({
      ...entryColumns(),
      reviewDecision: nameReviews.decision,
      createdByName: staffUsers.name,
      assigneeName: assignee.name,
      followedUpBy: followedUpBy(),
      cursor: cursorColumn(keys),
    })
    .from(r)
    .leftJoin(nameReviews, eq(nameReviews.verificationId, r.verificationId))
    .leftJoin(staffUsers, eq(staffUsers.id, r.createdBy))
    .leftJoin(assignee, eq(assignee.id, r.assignedTo))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(...keysetOrder(keys, position?.side ?? 'after'))
    .limit(Math.min(Math.max(Math.trunc(limit), 1), 1000));
}

/**
 * The newest request following up the row's, through the index on follows_verification_id: one
 * lookup per row of the page (a page is 100 rows), never a scan. Written raw because the table
 * is its own subquery's, under another name.
 */
function followedUpBy(): SQL<string | null> {
  return sql<
    string | null
  >`(select f.verification_id from ${r} f where f.follows_verification_id = ${r.verificationId} order by f.created_at desc, f.verification_id desc limit 1)`;
}

/**
 * How many requests the filter (view and search included) selects, counted up to `bound`:
 * `{ count: bound, more: true }` beyond it. The count reads at most `bound + 1` rows of the
 * filter's own range (a limited subquery), so it costs what one deep page does, whatever the
 * register's length (docs/performance.md).
 */
export function registerResultCountQuery(db: Pick<Db, 'select'>, input: RegisterFilter, context: ListContext, bound = RESULT_COUNT_BOUND) {
  const conditions = registerConditions(input, context);
  const limited = db
    .select({ one: sql`1`.as('one') })
    .from(r)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .limit(bound + 1)
    .as('limited');
  return db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(limited);
}

/** The number of results for the register's filters and search, up to RESULT_COUNT_BOUND (see registerResultCountQuery). */
export async function countRegisterResults(
  input: RegisterFilter,
  context: ListContext,
  bound = RESULT_COUNT_BOUND,
): Promise<{ count: number; more: boolean }> {
  const [row] = await registerResultCountQuery(await getDb(), input, context, bound);
  const counted = row?.count ?? 0;
  return counted > bound ? { count: bound, more: true } : { count: counted, more: false };
}

/**
 * Rows of the register, filtered, in the view's order from the start or from a cursor (read
 * backwards from a `before` cursor, so those come nearest-first). `limit` rows at most.
 */
export async function listRegister(input: RegisterFilter, options: ListOptions): Promise<RegisterPageEntry[]> {
  return registerListQuery(await getDb(), input, await withContactDigest(input, options));
}

/**
 * One page of the register from a page link's cursor (none: the first page), with the cursors of
 * the pages beside it (lib/db/keyset.ts). Each page is an index range, however deep.
 */
export async function listRegisterPage(
  input: RegisterFilter,
  { size = REGISTER_PAGE_SIZE, position, ...context }: ListContext & { size?: number; position?: PageCursor },
): Promise<{ entries: RegisterPageEntry[]; links: PageLinks }> {
  const rows = await listRegister(input, { ...context, limit: size + 1, position });
  const page = await pageFrom(rows, size, position, () => listRegister(input, { ...context, limit: size + 1 }));
  return { entries: page.rows, links: page.links };
}

// The counts under a search. The sets they count (pending and unexpired; completed with a name
// that differs and no decision yet) are bounded by the team's flow, not by the register's length:
// thousands at most, whatever the register holds. Searched, each set is read from its partial
// index and the term tested on each of its rows, inside the count's FILTER, which no index
// serves. In the WHERE clause, the planner would rather intersect the set with the trigram
// index's matches, and a common term ("dubo" among a million requests: 160k matches) costs far
// more to look up there (40 ms) than the set costs to read.

/** The filter's conditions but the search, which searchedOnly applies. */
function setConditions(filter: RegisterFilter, context: ListContext): SQL[] {
  return baseConditions({ ...filter, q: undefined }, context);
}

/** `condition`, and the search when there is one: for a count's FILTER. */
function searchedOnly(filter: RegisterFilter, context: ListContext, condition?: SQL): SQL {
  const conditions = [condition, filter.q ? searchCondition(filter.q, context.contactDigest) : undefined].filter((c) => c !== undefined);
  return conditions.length > 0 ? and(...conditions)! : sql`true`;
}

/**
 * The count behind countRegisterViews, unrun (its plan is checked in search-index.test.ts): one
 * pass over the pending, unexpired rows only, an index-only scan of a partial index (migration
 * 0013), so it stays cheap however long the register grows; an "all" count would not, so there
 * is none. Null when the filter's status leaves no pending request to count.
 */
export function registerViewCountsQuery(db: Pick<Db, 'select'>, input: RegisterFilter, context: ListContext) {
  const filter = registerFilterSchema.parse(input);
  if (filter.status && filter.status !== 'pending') return null;
  return db
    .select({
      expiring: sql<number>`count(*) filter (where ${searchedOnly(filter, context, expiringCondition(context.now))})`.mapWith(Number),
      stuck: sql<number>`count(*) filter (where ${searchedOnly(filter, context, stuckCondition(context.now))})`.mapWith(Number),
    })
    .from(r)
    .where(and(...setConditions(filter, context), pendingUnexpired(context.now)));
}

/** How many requests the "Expiring soon" and "Stuck" views would show with the other filters. */
export async function countRegisterViews(input: RegisterFilter, context: ListContext): Promise<{ expiring: number; stuck: number }> {
  const query = registerViewCountsQuery(await getDb(), input, await withContactDigest(input, context));
  const [row] = query ? await query : [];
  return { expiring: row?.expiring ?? 0, stuck: row?.stuck ?? 0 };
}

/**
 * The count behind countNeedsReview, unrun: the completed requests whose names differ, from their
 * partial index (migration 0013). Null when the filter's status leaves none to count.
 */
export function needsReviewCountQuery(db: Pick<Db, 'select'>, input: RegisterFilter, context: ListContext) {
  const filter = registerFilterSchema.parse(input);
  if (filter.status && filter.status !== 'completed') return null;
  return db
    .select({ count: sql<number>`count(*) filter (where ${searchedOnly(filter, context)})`.mapWith(Number) })
    .from(r)
    .where(and(...setConditions(filter, context), needsReviewCondition()));
}

/** How many requests the "Needs review" view would show with the other filters. */
export async function countNeedsReview(input: RegisterFilter, context: ListContext): Promise<number> {
  const query = needsReviewCountQuery(await getDb(), input, await withContactDigest(input, context));
  const [row] = query ? await query : [];
  return row?.count ?? 0;
}

/**
 * The request whose person's link is exactly `link` ("Look up"), if the register holds it: a
 * lookup in the link's hash index. Should a service ever give two requests one link, the newest.
 */
export async function findRequestByLink(link: string): Promise<string | undefined> {
  const db = await getDb();
  const [row] = await db.select({ verificationId: r.verificationId }).from(r).where(eq(r.link, link)).orderBy(desc(r.createdAt)).limit(1);
  return row?.verificationId;
}

/** One request's register row (kept in memory between changes: cache.server.ts). */
export async function getRegisterEntry(verificationId: string): Promise<RegisterEntry | undefined> {
  const db = await getDb();
  return readRegisterEntry(db, verificationId, async () => {
    const [row] = await db.select(entryColumns()).from(r).where(eq(r.verificationId, verificationId));
    return row;
  });
}
