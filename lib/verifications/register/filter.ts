// What "Recent requests" can be narrowed to: the filter's shape, reading it from a page's query
// string and writing it back, and the quick views ("expiring soon", "stuck", "needs review"). Pure and
// client-safe (no database, no `server-only`), so forms and links in any component can use it;
// the SQL that applies a filter is in queries.server.ts.
import { z } from 'zod';
import { calendarDay } from '@/lib/time/calendar-day';
import { type VerificationStatus, verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import { PREDEFINED_PURPOSES } from '@/lib/verifications/labels';

export const SEARCH_MAX = 200;

export const REGISTER_VIEWS = ['all', 'expiring', 'stuck', 'review'] as const;
export type RegisterView = (typeof REGISTER_VIEWS)[number];

/**
 * The status a quick view implies, set in the status filter too so the form says what the list
 * shows: only a pending request can be about to expire.
 */
const VIEW_STATUS: Partial<Record<RegisterView, VerificationStatus>> = { expiring: 'pending' };

export function impliedStatus(view: RegisterView | undefined): VerificationStatus | undefined {
  return view ? VIEW_STATUS[view] : undefined;
}

/** `filter` in another quick view: a status the current view implied is left behind with it. */
export function filterForView(filter: RegisterFilter, view: RegisterView): RegisterFilter {
  const status = filter.status !== undefined && filter.status === impliedStatus(filter.view) ? undefined : filter.status;
  return { ...filter, view, status };
}

/** "Expiring soon": the link stops working within this long. */
export const EXPIRING_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The purpose filter's value for "any purpose typed by hand" (the predefined ones are listed). */
export const CUSTOM_PURPOSE_FILTER = 'custom';
/** The created-by and assignee filters' value for "the signed-in staff member". */
export const MINE = 'mine';
/**
 * The assignee filter's value for "nobody has taken it". The assignee filter speaks the queue's
 * `?assignee=` words (mine, unassigned, a staff id: lib/verifications/queue/reasons.ts), so a
 * link means the same on both pages.
 */
export const UNASSIGNED = 'unassigned';

export const PREDEFINED_PURPOSE_VALUES = PREDEFINED_PURPOSES.map((p) => p.value);

// A staff id, or one of the words above. Ids are opaque but printable; anything else (a NUL byte
// would make Postgres refuse the whole query) cannot be one.
const staffIdOrWord = z.string().regex(/^[\x21-\x7e]{1,100}$/);

export const registerFilterSchema = z.object({
  status: z.enum(verificationStatuses).optional(),
  purpose: z.enum([...PREDEFINED_PURPOSE_VALUES, CUSTOM_PURPOSE_FILTER]).optional(),
  // MINE or a staff id.
  createdBy: staffIdOrWord.optional(),
  // MINE, UNASSIGNED or a staff id.
  assignee: staffIdOrWord.optional(),
  from: calendarDay.optional(),
  to: calendarDay.optional(),
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
  assignee: 'The assignee was not recognised, so requests are shown whoever they are assigned to.',
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
  const implied = impliedStatus(result.view);
  if (implied && result.status !== implied) {
    if (result.status) {
      problems.push({ field: 'status', message: 'The “Expiring soon” view lists pending requests only, so the status is set to Pending.' });
    }
    result.status = implied;
  }
  return { filter: result, problems };
}

/**
 * The query string that reproduces `filter`, for links that keep the filters (a page link adds its
 * cursor to it: lib/db/keyset.ts, withPosition).
 */
export function registerQuery(filter: RegisterFilter): string {
  const params = new URLSearchParams();
  for (const field of ['q', 'status', 'purpose', 'createdBy', 'assignee', 'from', 'to', 'view'] as const) {
    const value = filter[field];
    if (value !== undefined && !(field === 'view' && value === 'all')) params.set(field, value);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function hasActiveFilters(filter: RegisterFilter): boolean {
  // The status its view implies is part of the view, not a filter staff added.
  const status = filter.status !== undefined && filter.status !== impliedStatus(filter.view);
  return status || (['q', 'purpose', 'createdBy', 'assignee', 'from', 'to'] as const).some((field) => filter[field] !== undefined);
}

// ── Quick views, one entry at a time (the SQL in queries.server.ts must agree with these) ──

/** What the quick views look at in a register entry. */
type DeadlineFields = { status: string; accessExpiresAt: Date | null; createdAt: Date };

/** Pending, and its link stops working within the next 24 hours (but has not yet). */
export function isExpiringSoon(entry: Pick<DeadlineFields, 'status' | 'accessExpiresAt'>, now: Date): boolean {
  if (entry.status !== 'pending' || !entry.accessExpiresAt) return false;
  const left = entry.accessExpiresAt.getTime() - now.getTime();
  return left > 0 && left <= EXPIRING_WINDOW_MS;
}

/** Pending past the middle of its validity, and not yet expired: the person has not acted yet. */
export function isStuck(entry: DeadlineFields, now: Date): boolean {
  if (entry.status !== 'pending' || !entry.accessExpiresAt) return false;
  const t = now.getTime();
  return entry.accessExpiresAt.getTime() > t && t - entry.createdAt.getTime() > entry.accessExpiresAt.getTime() - t;
}
