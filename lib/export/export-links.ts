// Where the export links point, with the page's filters. Client-safe (no database).
import { type RegisterFilter, registerQuery } from '@/lib/verifications/register/filter';

/** The register's CSV export with the register page's filters (the page number is not a filter). */
export function registerExportHref(filter: RegisterFilter): string {
  return `/api/exports/register${registerQuery(filter)}`;
}

export { auditExportHref } from '@/lib/audit-trail/filter';
