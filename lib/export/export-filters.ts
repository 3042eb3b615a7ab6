// The filters of an export, read exactly as the page that links to it reads them — but where the
// page ignores a value it does not understand and says so, an export refuses: a file handed to an
// auditor must hold what its filters say, or nothing.
import { type AuditTrailFilter, parseAuditFilter } from '@/lib/audit-trail/filter';
import { parseRegisterFilter, type RegisterFilter, type RegisterFilterField } from '@/lib/verifications/register/filter';

type Params = Record<string, string | string[] | undefined>;
type Parsed<Filter> = { filter: Filter; problems: string[] };

const REGISTER_FIELDS: Record<RegisterFilterField, string> = {
  status: 'The status is not one of pending, completed, expired or failed.',
  purpose: 'The purpose is not one of the listed purposes or “custom”.',
  createdBy: 'The “created by” value is not a staff id.',
  from: 'The “From” date is not a date (use YYYY-MM-DD).',
  to: 'The “To” date is not a date (use YYYY-MM-DD).',
  q: 'The search is empty or too long.',
  view: 'The view is not one of the register’s views.',
};

export function registerExportFilter(params: Params): Parsed<RegisterFilter> {
  const { filter, problems } = parseRegisterFilter(params);
  return { filter, problems: problems.map((problem) => REGISTER_FIELDS[problem.field] ?? problem.message) };
}

const AUDIT_FIELDS: Record<keyof AuditTrailFilter, string> = {
  verification: 'The verification id is empty, too long or holds control characters.',
  actor: 'The staff member is not a staff id.',
  action: 'The action is not one the audit trail records.',
  from: 'The “From” date is not a date (use YYYY-MM-DD).',
  to: 'The “To” date is not a date (use YYYY-MM-DD).',
};

export function auditExportFilter(params: Params): Parsed<AuditTrailFilter> {
  const { filter, problems } = parseAuditFilter(params);
  return { filter, problems: problems.map((problem) => AUDIT_FIELDS[problem.field]) };
}

/**
 * The register filter as audit details. The search text is left out — it is often a person's
 * name, which the audit trail never holds — and only its presence is recorded.
 */
export function registerFilterDetails(filter: RegisterFilter): Record<string, string | boolean> {
  const { q, ...codes } = filter;
  const details: Record<string, string | boolean> = {};
  for (const [field, value] of Object.entries(codes)) if (typeof value === 'string') details[field] = value;
  if (q !== undefined) details.search = true;
  return details;
}

/** The audit filter as audit details: ids, codes and days only. */
export function auditFilterDetails(filter: AuditTrailFilter): Record<string, string> {
  const details: Record<string, string> = {};
  for (const [field, value] of Object.entries(filter)) if (typeof value === 'string') details[field] = value;
  return details;
}

/**
 * The details with the zone the `from` and `to` days were read in, when there are any: "from
 * 2026-11-24" selects different rows in Brussels and in New York.
 */
export function withDayZone<Details extends Record<string, string | boolean>>(
  details: Details,
  timeZone: string,
): Details | (Details & { timeZone: string }) {
  return 'from' in details || 'to' in details ? { ...details, timeZone } : details;
}
