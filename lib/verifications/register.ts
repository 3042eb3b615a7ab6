// The dashboard's register of the verification requests it created: written at creation,
// refreshed whenever the dashboard reads a record, listed (filtered, searched, paged) as
// "Recent requests".
import 'server-only';
import { and, asc, desc, eq, gt, gte, lt, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { type VerificationRequestRow, verificationRequests } from '@/lib/db/schema';
import type { CreateVerificationRequest, VerificationRecord } from '@/lib/verification-service';
import { PREDEFINED_PURPOSES, STATUSES } from './labels';
import { readRegisterEntry } from './register-cache';

export type RegisterEntry = VerificationRequestRow;

export const REGISTER_PAGE_SIZE = 100;
/** "Expiring soon": the link stops working within this long. */
export const EXPIRING_WINDOW_MS = 24 * 60 * 60 * 1000;
export const SEARCH_MAX = 200;

export const REGISTER_VIEWS = ['all', 'expiring', 'stuck'] as const;
export type RegisterView = (typeof REGISTER_VIEWS)[number];

/** The purpose filter's value for "any purpose typed by hand" (the predefined ones are listed). */
export const CUSTOM_PURPOSE_FILTER = 'custom';
/** The created-by filter's value for "the signed-in staff member". */
export const MINE = 'mine';

const PREDEFINED_PURPOSE_VALUES = PREDEFINED_PURPOSES.map((p) => p.value);

// A UTC calendar day. The year is bounded so that the day after `to` is still a date Postgres
// and `Date#toISOString` agree on (year 0 and five-digit years are not).
const utcDay = z.iso.date().refine((day) => {
  const year = Number(day.slice(0, 4));
  return year >= 1970 && year <= 9998;
});

export const registerFilterSchema = z.object({
  status: z.enum(STATUSES).optional(),
  purpose: z.enum([...PREDEFINED_PURPOSE_VALUES, CUSTOM_PURPOSE_FILTER]).optional(),
  // MINE or a staff id. Ids are opaque but printable; anything else (a NUL byte would make
  // Postgres refuse the whole query) cannot be one.
  createdBy: z
    .string()
    .regex(/^[\x21-\x7e]{1,100}$/)
    .optional(),
  from: utcDay.optional(),
  to: utcDay.optional(),
  q: z
    .string()
    // Control characters cannot be in a name or an id, and Postgres refuses NUL outright.
    .transform((q) => q.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim())
    .pipe(z.string().min(1).max(SEARCH_MAX))
    .optional(),
  view: z.enum(REGISTER_VIEWS).optional(),
});

export type RegisterFilter = z.output<typeof registerFilterSchema>;
export type RegisterFilterField = keyof RegisterFilter;
export type RegisterFilterProblem = { field: RegisterFilterField; message: string };

const PROBLEM_MESSAGES: Record<RegisterFilterField, string> = {
  status: 'The status was not recognised, so all statuses are shown.',
  purpose: 'The purpose was not recognised, so all purposes are shown.',
  createdBy: 'The staff member was not recognised, so everyone’s requests are shown.',
  from: 'The “From” date was not understood (use YYYY-MM-DD), so it is ignored.',
  to: 'The “To” date was not understood (use YYYY-MM-DD), so it is ignored.',
  q: `The search was empty or longer than ${SEARCH_MAX} characters, so it is ignored.`,
  view: 'The view was not recognised, so all requests are shown.',
};

export function filterProblem(field: RegisterFilterField): RegisterFilterProblem {
  return { field, message: PROBLEM_MESSAGES[field] };
}

type RawParams = Record<string, string | string[] | undefined>;

/**
 * Reads the filter from a page's query string. Each value is checked on its own: a bad one is
 * dropped and reported, the others still apply, and nothing here throws. Empty values (what a
 * GET form sends for untouched fields) simply mean "no filter".
 */
export function parseRegisterFilter(params: RawParams): { filter: RegisterFilter; problems: RegisterFilterProblem[] } {
  const first = (key: string) => {
    const value = params[key];
    const text = Array.isArray(value) ? value[0] : value;
    return text === undefined || text.trim() === '' ? undefined : text;
  };
  const filter: Record<string, unknown> = {};
  const problems: RegisterFilterProblem[] = [];
  const shape = registerFilterSchema.shape;
  for (const field of Object.keys(shape) as RegisterFilterField[]) {
    const value = first(field);
    if (value === undefined) continue;
    const parsed = shape[field].safeParse(value);
    if (parsed.success) filter[field] = parsed.data;
    else problems.push(filterProblem(field));
  }
  // Bookmarks from before the filters: "/?scope=mine".
  if (filter.createdBy === undefined && first('scope') === 'mine') filter.createdBy = MINE;
  const result = filter as RegisterFilter;
  // ISO days compare correctly as strings. Reversed dates are taken to mean the same range.
  if (result.from && result.to && result.from > result.to) [result.from, result.to] = [result.to, result.from];
  if (result.view === 'all') delete result.view;
  return { filter: result, problems };
}

/** The query string that reproduces `filter` (plus a page), for links that keep the filters. */
export function registerQuery(filter: RegisterFilter, page = 1): string {
  const params = new URLSearchParams();
  for (const field of ['q', 'status', 'purpose', 'createdBy', 'from', 'to', 'view'] as const) {
    const value = filter[field];
    if (value !== undefined && !(field === 'view' && value === 'all')) params.set(field, value);
  }
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function hasActiveFilters(filter: RegisterFilter): boolean {
  return (['q', 'status', 'purpose', 'createdBy', 'from', 'to'] as const).some((field) => filter[field] !== undefined);
}

// ── Predicates (the SQL below and the UI must agree on them) ──────────────────────────────────

/** Pending, and its link stops working within the next 24 hours (but has not yet). */
export function isExpiringSoon(entry: Pick<RegisterEntry, 'status' | 'accessExpiresAt'>, now: Date): boolean {
  if (entry.status !== 'pending' || !entry.accessExpiresAt) return false;
  const left = entry.accessExpiresAt.getTime() - now.getTime();
  return left > 0 && left <= EXPIRING_WINDOW_MS;
}

/** Pending past the middle of its validity, and not yet expired: the person has not acted yet. */
export function isStuck(entry: Pick<RegisterEntry, 'status' | 'accessExpiresAt' | 'createdAt'>, now: Date): boolean {
  if (entry.status !== 'pending' || !entry.accessExpiresAt) return false;
  const t = now.getTime();
  return entry.accessExpiresAt.getTime() > t && t - entry.createdAt.getTime() > entry.accessExpiresAt.getTime() - t;
}

// ── Queries ──────────────────────────────────────────────────────────────────────────────────

const r = verificationRequests;

/** `\`, `%` and `_` taken literally inside a LIKE pattern (backslash is Postgres's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
const dayAfter = (day: string) => new Date(dayStart(day).getTime() + 24 * 60 * 60 * 1000);

type ListContext = {
  /** The clock, passed in so that "expiring" and "stuck" are testable. */
  now: Date;
  /** The signed-in staff member, for createdBy: 'mine'. */
  staffId?: string;
};

/** Every condition of the filter except the view. */
function baseConditions(filter: RegisterFilter, { staffId }: ListContext): SQL[] {
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
  if (filter.from) conditions.push(gte(r.createdAt, dayStart(filter.from)));
  if (filter.to) conditions.push(lt(r.createdAt, dayAfter(filter.to)));
  if (filter.q) {
    const q = escapeLike(filter.q);
    // A name anywhere inside, in any case; an id only from its start, and exactly as written:
    // ids are opaque, so their case may matter.
    conditions.push(or(sql`${r.name} ILIKE ${`%${q}%`} ESCAPE '\\'`, sql`${r.verificationId} LIKE ${`${q}%`} ESCAPE '\\'`)!);
  }
  return conditions;
}

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
  return [];
}

/**
 * One page of the register, filtered. Newest first; the "expiring" view puts the soonest
 * deadline first. Ask for one more than a page to learn whether there is another.
 */
export async function listRegister(
  input: RegisterFilter,
  { limit = REGISTER_PAGE_SIZE, offset = 0, ...context }: ListContext & { limit?: number; offset?: number },
): Promise<RegisterEntry[]> {
  const filter = registerFilterSchema.parse(input);
  const conditions = [...baseConditions(filter, context), ...viewConditions(filter.view, context.now)];
  const order =
    filter.view === 'expiring'
      ? [asc(r.accessExpiresAt), desc(r.createdAt), desc(r.verificationId)]
      : [desc(r.createdAt), desc(r.verificationId)];
  const db = await getDb();
  return db
    .select()
    .from(r)
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

/** One request's register row (kept in memory between changes: register-cache.ts). */
export async function getRegisterEntry(verificationId: string): Promise<RegisterEntry | undefined> {
  const db = await getDb();
  return readRegisterEntry(db, verificationId, async () => {
    const [row] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, verificationId));
    return row;
  });
}

/** A verification in one of these states stays there: the service's terminal states are final. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'expired']);

/**
 * Brings the register's copy of a record up to date with what the service just said (after a
 * read or a webhook), and returns the status the register now holds — or null when the
 * request is not in the register (never created here, or purged: it is not brought back).
 * A terminal status is never replaced, so late or reordered answers cannot move it backwards;
 * a change of status leaves an audit entry.
 */
export async function refreshRegisterEntry(verificationId: string, record: VerificationRecord): Promise<string | null> {
  const db = await getDb();
  // Most reads teach the register nothing new: answer those from the row as last read (usually
  // still in memory), without a transaction, a row lock or a write (this runs on every page view
  // and live refetch).
  const known = await getRegisterEntry(verificationId);
  if (!known) return null;
  if (
    known.status === record.status &&
    known.identifiedName === record.identified_name &&
    known.accessExpiresAt?.getTime() === Date.parse(record.access_expires_at) &&
    known.keptUntil?.getTime() === Date.parse(record.kept_until)
  ) {
    return known.status;
  }
  return db.transaction(async (tx) => {
    // FOR UPDATE: two updates of one id at once (a webhook and a page read) are serialised here,
    // so the terminal check below cannot be raced.
    const [row] = await tx
      .select({ status: verificationRequests.status })
      .from(verificationRequests)
      .where(eq(verificationRequests.verificationId, verificationId))
      .for('update');
    if (!row) return null;
    if (TERMINAL_STATUSES.has(row.status) && row.status !== record.status) return row.status;
    await tx
      .update(verificationRequests)
      .set({
        status: record.status,
        // Reads alone (no webhooks configured) must also teach the register the identified name.
        identifiedName: record.identified_name,
        accessExpiresAt: new Date(record.access_expires_at),
        keptUntil: new Date(record.kept_until),
        // When the register last learnt something from the service (unchanged reads don't write).
        refreshedAt: new Date(),
      })
      .where(eq(verificationRequests.verificationId, verificationId));
    if (row.status !== record.status) {
      await recordAudit(
        {
          actorId: null,
          action: 'verification.status_changed',
          target: { type: 'verification', id: verificationId },
          details: { status: record.status, previous: row.status },
        },
        tx,
      );
    }
    return record.status;
  });
}

export function newRegisterEntry(
  verificationId: string,
  request: CreateVerificationRequest,
  link: string | null,
): typeof verificationRequests.$inferInsert {
  return {
    verificationId,
    name: request.name,
    purpose: request.chosenPurpose,
    language: request.language,
    shareableLink: request.shareableLink ?? false,
    emailNotification: request.shareableLink ? false : (request.emailNotification ?? true),
    smsNotification: request.smsNotification ?? false,
    link,
  };
}
