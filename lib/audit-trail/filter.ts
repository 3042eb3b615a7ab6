// What the audit trail can be narrowed to — a verification id, a staff member, an action, whole
// days in the display zone (lib/time) — read from a page's query string and written back, so
// every filtered view has a URL.
// Pure and client-safe: the audit page, its CSV export and links from other pages share it.
import { z } from 'zod';
import { AUDIT_ACTIONS, type AuditAction } from '@/lib/audit/audit-labels';
import { calendarDay } from '@/lib/time/calendar-day';

// Ids are opaque, but printable and short; anything else cannot be one (and a NUL byte would
// make Postgres refuse the query).
export const VERIFICATION_ID_MAX = 200;

export const auditFilterSchema = z.object({
  verification: z
    .string()
    .trim()
    .regex(/^[^\u0000-\u001f\u007f]+$/)
    .max(VERIFICATION_ID_MAX)
    .optional(),
  actor: z
    .string()
    .regex(/^[\x21-\x7e]{1,100}$/)
    .optional(),
  action: z.enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]]).optional(),
  from: calendarDay.optional(),
  to: calendarDay.optional(),
});

export type AuditTrailFilter = z.output<typeof auditFilterSchema>;
export type AuditFilterField = keyof AuditTrailFilter;
/** A filter value that was dropped; the page says why in the reader's words (audit.json, `problems.<field>`). */
export type AuditFilterProblem = { field: AuditFilterField };

/** The order of the query string, and of the filter form's fields. */
const FIELDS = ['verification', 'actor', 'action', 'from', 'to'] as const satisfies readonly AuditFilterField[];

export function auditFilterProblem(field: AuditFilterField): AuditFilterProblem {
  return { field };
}

type RawParams = Record<string, string | string[] | undefined>;

/**
 * Reads the filter from a query string. Each value is checked on its own: a bad one is dropped
 * and reported, the others apply. Empty values (untouched fields of a GET form) mean "no filter".
 */
export function parseAuditFilter(params: RawParams): { filter: AuditTrailFilter; problems: AuditFilterProblem[] } {
  const filter: Record<string, unknown> = {};
  const problems: AuditFilterProblem[] = [];
  for (const field of FIELDS) {
    const raw = params[field];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || value.trim() === '') continue;
    const parsed = auditFilterSchema.shape[field].safeParse(value);
    if (parsed.success) filter[field] = parsed.data;
    else problems.push(auditFilterProblem(field));
  }
  const result = filter as AuditTrailFilter;
  // ISO days compare correctly as strings; reversed dates are taken to mean the same range.
  if (result.from && result.to && result.from > result.to) [result.from, result.to] = [result.to, result.from];
  return { filter: result, problems };
}

/** The query string that reproduces `filter` (a page link adds its cursor: lib/db/keyset.ts, withPosition). */
export function auditTrailQuery(filter: AuditTrailFilter): string {
  const params = new URLSearchParams();
  for (const field of FIELDS) {
    const value = filter[field];
    if (value !== undefined) params.set(field, value);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The audit trail narrowed to one verification request: what a detail page links to. */
export function auditTrailHrefFor(verificationId: string): string {
  return `/audit${auditTrailQuery({ verification: verificationId })}`;
}

/** The CSV export of the audit trail with the same filters. */
export function auditExportHref(filter: AuditTrailFilter): string {
  return `/api/exports/audit${auditTrailQuery(filter)}`;
}
