// The sandbox's own API audit log (contract §1): one row per authenticated API call, naming the
// company, the method, the path and the answer's status, and when. Never a body, a header or
// anything typed by the caller other than a well-formed id: the log must hold no personal data.
// Rows are deleted after the company's audit retention by the purge (lifecycle.ts).
import { processSingleton } from '@/lib/platform/process-singleton';
import 'server-only';
import { asc, eq } from 'drizzle-orm';
import { onBeforeCloseDatabases } from '@/lib/platform/database';
import type { SandboxDb } from '@/lib/sandbox/db';
import { apiAuditLog } from '@/lib/sandbox/schema';

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

/**
 * How long a call's row may wait in memory before it is written. Rows are written in batches
 * (one multi-row INSERT) rather than one INSERT per call: an INSERT per read was the biggest
 * single database cost of a sandbox read. The log is never read on the hot path, and every
 * reader of it (listApiAuditLog, the purge) flushes first, so batching changes no answer.
 * A process killed outright (SIGKILL, out of memory) loses at most this window of rows; a
 * normal shutdown flushes (closeDatabases runs the flush before closing).
 */
export const API_AUDIT_FLUSH_MS = 50;
/** A batch is written at once when this many rows wait, whatever the timer says. */
export const API_AUDIT_MAX_BATCH = 500;

type AuditRow = typeof apiAuditLog.$inferInsert;
type Queued = { db: SandboxDb; row: AuditRow; resolve: () => void; reject: (error: unknown) => void };
type Writer = { queue: Queued[]; timer: NodeJS.Timeout | undefined; flushing: Promise<void> };

// One per process (a process singleton): every route bundle must share one buffer
// (and one flush at shutdown).
function writer(): Writer {
  return processSingleton<Writer>('sandbox-api-audit-writer', () => {
    onBeforeCloseDatabases(flushApiAuditLog);
    return { queue: [], timer: undefined, flushing: Promise.resolve() };
  });
}

/**
 * Queues one call's row. The promise settles once the row is in the database (or could not be
 * written): tests and tools may await it, the API wrapper does not make callers wait for it.
 */
export function recordApiCall(db: SandboxDb, call: ApiCall): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const row: AuditRow = {
      id: crypto.randomUUID(),
      companyId: call.companyId,
      at: call.at,
      method: call.method.toUpperCase(),
      path: auditPath(call.url),
      status: call.status,
    };
    const current = writer();
    current.queue.push({ db, row, resolve, reject });
    if (current.queue.length >= API_AUDIT_MAX_BATCH) {
      void flushApiAuditLog();
    } else {
      // Not unref'd: a short-lived process must not exit with rows still waiting.
      current.timer ??= setTimeout(() => void flushApiAuditLog(), API_AUDIT_FLUSH_MS);
    }
  });
}

/**
 * Writes every waiting row now. Flushes run one after another, so when this resolves every row
 * queued before the call (including rows a concurrent flush had already taken) is written.
 */
export function flushApiAuditLog(): Promise<void> {
  const current = writer();
  current.flushing = current.flushing.then(() => writeQueued(current));
  return current.flushing;
}

async function writeQueued(current: Writer): Promise<void> {
  if (current.timer) clearTimeout(current.timer);
  current.timer = undefined;
  const taken = current.queue.splice(0);
  if (taken.length === 0) return;
  // Tests open a fresh database per file; a batch is written to the database each row came from.
  const byDb = new Map<SandboxDb, Queued[]>();
  for (const item of taken) {
    const rows = byDb.get(item.db);
    if (rows) rows.push(item);
    else byDb.set(item.db, [item]);
  }
  for (const [db, items] of byDb) {
    for (let start = 0; start < items.length; start += API_AUDIT_MAX_BATCH) {
      await writeBatch(db, items.slice(start, start + API_AUDIT_MAX_BATCH));
    }
  }
}

async function writeBatch(db: SandboxDb, items: Queued[]): Promise<void> {
  try {
    await db.insert(apiAuditLog).values(items.map((item) => item.row));
    for (const item of items) item.resolve();
  } catch (error) {
    if (items.length === 1) {
      items[0]!.reject(error);
      return;
    }
    // One bad row (its company deleted meanwhile, say) must not take the others with it.
    for (const item of items) await writeBatch(db, [item]);
  }
}

export type ApiAuditEntry = { at: Date; method: string; path: string; status: number };

/** A company's audit log, oldest first, including the calls still waiting to be written. */
export async function listApiAuditLog(db: SandboxDb, companyId: string, limit = 1000): Promise<ApiAuditEntry[]> {
  await flushApiAuditLog();
  return db
    .select({ at: apiAuditLog.at, method: apiAuditLog.method, path: apiAuditLog.path, status: apiAuditLog.status })
    .from(apiAuditLog)
    .where(eq(apiAuditLog.companyId, companyId))
    .orderBy(asc(apiAuditLog.at), asc(apiAuditLog.id))
    .limit(limit);
}
