// Reading the dashboard's register of the verification requests it created: one page of
// "Recent requests" (filtered, searched, newest first), the quick views' counts, and one entry.
// What a filter means is filter.ts; this is how Postgres applies it.
import 'server-only';
import { and, asc, desc, eq, getTableColumns, gt, gte, lt, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { nameReviews, type VerificationRequestRow, verificationRequests } from '@/lib/db/schema';
import { escapedForLike, foldForSearch } from '@/lib/db/search-fold';
import { startOfDayIn, startOfNextDayIn } from '@/lib/time/display-time';
import { FALLBACK_TIME_ZONE } from '@/lib/time/time-zone';
import { couldStartUuid } from '@/lib/verification-service/contract/verification-id';
import type { NameReviewDecision } from '@/lib/verifications/review/labels';
import { needsReviewCondition } from '@/lib/verifications/review/needs-review.server';
import { readRegisterEntry } from './cache.server';
import {
  CUSTOM_PURPOSE_FILTER,
  EXPIRING_WINDOW_MS,
  MINE,
  PREDEFINED_PURPOSE_VALUES,
  type RegisterFilter,
  type RegisterView,
  registerFilterSchema,
} from './filter';

export type RegisterEntry = VerificationRequestRow;

/** A row of the register's list: the entry and, once staff have decided, the name review's outcome. */
export type RegisterListEntry = RegisterEntry & { reviewDecision: NameReviewDecision | null };

export const REGISTER_PAGE_SIZE = 100;

const r = verificationRequests;

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
};

/** Every condition of the filter except the view. */
function baseConditions(filter: RegisterFilter, { staffId, timeZone = FALLBACK_TIME_ZONE }: ListContext): SQL[] {
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
  // Half-open ranges on created_at (an index): `to` includes the whole day, to the microsecond.
  if (filter.from) conditions.push(gte(r.createdAt, startOfDayIn(filter.from, timeZone)));
  if (filter.to) conditions.push(lt(r.createdAt, startOfNextDayIn(filter.to, timeZone)));
  if (filter.q) conditions.push(searchCondition(filter.q));
  return conditions;
}

/**
 * A search term matches a request when it is inside its requested or identified name, ignoring
 * case and accents (lib/db/search-fold.ts), or when an id starts with it. Ids are opaque, so a prefix is
 * matched as written; a term that could start a UUID is also matched in lowercase, the way
 * UUIDs are kept (lib/verification-service/contract/verification-id.ts).
 */
function searchCondition(q: string): SQL {
  // A scalar subquery: the term is folded once per query, not once per row.
  const folded = sql`(select '%' || ${escapedForLike(foldForSearch(sql`${q}`))} || '%')`;
  const prefixes = couldStartUuid(q) && q.toLowerCase() !== q ? [q, q.toLowerCase()] : [q];
  return or(
    sql`${r.searchNames} LIKE ${folded} ESCAPE '\\'`,
    ...prefixes.map((prefix) => sql`${r.verificationId} LIKE ${`${escapeLike(prefix)}%`} ESCAPE '\\'`),
  )!;
}

// ── The quick views in SQL (isExpiringSoon and isStuck in filter.ts must agree) ──────

// Both views start with status = 'pending' and a lower bound on access_expires_at, which the
// (status, access_expires_at) index serves; "stuck" then checks each of those rows.
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

/**
 * One page of the register, filtered. Newest first; the "expiring" view puts the soonest
 * deadline first. Ask for one more than a page to learn whether there is another.
 */
export async function listRegister(
  input: RegisterFilter,
  { limit = REGISTER_PAGE_SIZE, offset = 0, ...context }: ListContext & { limit?: number; offset?: number },
): Promise<RegisterListEntry[]> {
  const filter = registerFilterSchema.parse(input);
  const conditions = registerConditions(filter, context);
  const order =
    filter.view === 'expiring'
      ? [asc(r.accessExpiresAt), desc(r.createdAt), desc(r.verificationId)]
      : [desc(r.createdAt), desc(r.verificationId)];
  const db = await getDb();
  // The review is one row per request at most (its key), so the join never repeats a request.
  return db
    .select({ ...getTableColumns(r), reviewDecision: nameReviews.decision })
    .from(r)
    .leftJoin(nameReviews, eq(nameReviews.verificationId, r.verificationId))
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(...order)
    .limit(Math.min(Math.max(Math.trunc(limit), 1), 1000))
    .offset(Math.max(Math.trunc(offset), 0));
}

/**
 * How many requests the "Expiring soon" and "Stuck" views would show with the other filters.
 * One query over pending, unexpired rows only (an index range), so it stays cheap however long
 * the register grows; an "all" count would not, so there is none.
 */
export async function countRegisterViews(input: RegisterFilter, context: ListContext): Promise<{ expiring: number; stuck: number }> {
  const filter = registerFilterSchema.parse(input);
  if (filter.status && filter.status !== 'pending') return { expiring: 0, stuck: 0 };
  const db = await getDb();
  const [row] = await db
    .select({
      expiring: sql<number>`count(*) filter (where ${expiringCondition(context.now)})`.mapWith(Number),
      stuck: sql<number>`count(*) filter (where ${stuckCondition(context.now)})`.mapWith(Number),
    })
    .from(r)
    .where(and(...baseConditions(filter, context), pendingUnexpired(context.now)));
  return { expiring: row?.expiring ?? 0, stuck: row?.stuck ?? 0 };
}

/** How many requests the "Needs review" view would show with the other filters. */
export async function countNeedsReview(input: RegisterFilter, context: ListContext): Promise<number> {
  const filter = registerFilterSchema.parse(input);
  if (filter.status && filter.status !== 'completed') return 0;
  const db = await getDb();
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(r)
    .where(and(...baseConditions(filter, context), needsReviewCondition()));
  return row?.count ?? 0;
}

/** One request's register row (kept in memory between changes: cache.server.ts). */
export async function getRegisterEntry(verificationId: string): Promise<RegisterEntry | undefined> {
  const db = await getDb();
  return readRegisterEntry(db, verificationId, async () => {
    const [row] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, verificationId));
    return row;
  });
}
