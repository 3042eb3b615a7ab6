// The filters of an export, read exactly as the page that links to it reads them — but where the
// page ignores a value it does not understand and says so, an export refuses: a file handed to an
// auditor must hold what its filters say, or nothing.
import { getTranslations } from 'next-intl/server';
import { type AuditTrailFilter, parseAuditFilter } from '@/lib/audit-trail/filter';
import { parseRegisterFilter, type RegisterFilter } from '@/lib/verifications/register/filter';

type Params = Record<string, string | string[] | undefined>;
type Parsed<Filter> = { filter: Filter; problems: string[] };

/** The register's filters, with each one not understood said in the exporter's language. */
export async function registerExportFilter(params: Params): Promise<Parsed<RegisterFilter>> {
  const t = await getTranslations('exports.problems');
  const { filter, problems } = parseRegisterFilter(params);
  return { filter, problems: problems.map((problem) => t(`register.${problem.field}`)) };
}

/** The audit trail's filters, with each one not understood said in the exporter's language. */
export async function auditExportFilter(params: Params): Promise<Parsed<AuditTrailFilter>> {
  const t = await getTranslations('exports.problems');
  const { filter, problems } = parseAuditFilter(params);
  return { filter, problems: problems.map((problem) => t(`audit.${problem.field}`)) };
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
