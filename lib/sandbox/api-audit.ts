// The sandbox's own API audit log (seed §1): one row per authenticated API call, naming the
// company, the method, the path and the answer's status, and when. Never a body, a header or
// anything typed by the caller other than a well-formed id: the log must hold no personal data.
// Rows are deleted after the company's audit retention by the purge (lifecycle.ts).
import 'server-only';
import { asc, eq } from 'drizzle-orm';
import type { SandboxDb } from './db';
import { apiAuditLog } from './schema';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The fixed words of the sandbox's API paths; any other segment is something the caller typed. */
const KNOWN_SEGMENTS = new Set(['v1', 'verifications', 'new', 'sandbox', 'outbox']);

/** Stands in for a path segment that is not a known word or a UUID (it might be a name or an e-mail). */
export const REDACTED_SEGMENT = '{invalid}';

/**
 * The path as it is logged: the query string dropped, UUIDs kept (lower case, as stored), the
 * API's own words kept, and anything else replaced, since a malformed id could be personal data.
 */
export function auditPath(url: string): string {
  const { pathname } = new URL(url);
  return pathname
    .split('/')
    .map((segment) => {
      if (segment === '' || KNOWN_SEGMENTS.has(segment)) return segment;
      return UUID_PATTERN.test(segment) ? segment.toLowerCase() : REDACTED_SEGMENT;
    })
    .join('/');
}

export type ApiCall = { companyId: string; method: string; url: string; status: number; at: Date };

export async function recordApiCall(db: SandboxDb, call: ApiCall): Promise<void> {
  await db.insert(apiAuditLog).values({
    id: crypto.randomUUID(),
    companyId: call.companyId,
    at: call.at,
    method: call.method.toUpperCase(),
    path: auditPath(call.url),
    status: call.status,
  });
}

export type ApiAuditEntry = { at: Date; method: string; path: string; status: number };

/** A company's audit log, oldest first. */
export async function listApiAuditLog(db: SandboxDb, companyId: string, limit = 1000): Promise<ApiAuditEntry[]> {
  return db
    .select({ at: apiAuditLog.at, method: apiAuditLog.method, path: apiAuditLog.path, status: apiAuditLog.status })
    .from(apiAuditLog)
    .where(eq(apiAuditLog.companyId, companyId))
    .orderBy(asc(apiAuditLog.at), asc(apiAuditLog.id))
    .limit(limit);
}
