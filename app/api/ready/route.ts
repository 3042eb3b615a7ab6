// Readiness: can this instance do its job — is its database reachable, and does the
// verification service answer? 200 when both hold, 503 otherwise. Only the names of the checks
// and ok/failed are reported (no errors, addresses or versions), and, as a detail that never
// fails readiness, the state of the audit chain's last check.
//
// Anyone may ask, so asking must cost the service nothing: the service's answer is shared by all
// callers for a few seconds (lib/verification-service/reachability.ts); the database check is
// local and runs each time, under a short deadline of its own: a load balancer must learn that
// the database is gone well before the pool would give up on a connection.
import { sql } from 'drizzle-orm';
import { lastChainCheck } from '@/lib/audit/chain/chain-check.server';
import { getDb } from '@/lib/db';
import { withinDeadline } from '@/lib/platform/database-errors';
import { serviceReachable } from '@/lib/verification-service/reachability';

export const dynamic = 'force-dynamic';

/** How long the database gets to answer `select 1`: far more than it needs when it is well. */
export const READY_DATABASE_DEADLINE_MS = 2_000;

async function databaseReachable(): Promise<boolean> {
  try {
    const db = await getDb();
    await withinDeadline(db.execute(sql`select 1`), READY_DATABASE_DEADLINE_MS);
    return true;
  } catch {
    return false;
  }
}

/**
 * `?check=database` asks only about the database: the dashboard's error page wants to know
 * whether to say "Database unavailable", and that question must not cost a call to the service.
 */
export async function GET(request?: Request) {
  const databaseOnly = request !== undefined && new URL(request.url).searchParams.get('check') === 'database';
  const [database, service] = await Promise.all([databaseReachable(), databaseOnly ? Promise.resolve(true) : serviceReachable()]);
  const ready = database && service;
  const checks = databaseOnly
    ? { database: database ? 'ok' : 'failed' }
    : { database: database ? 'ok' : 'failed', service: service ? 'ok' : 'failed' };
  const details = database && !databaseOnly ? { auditChain: await auditChainState() } : undefined;
  return Response.json(
    { status: ready ? 'ready' : 'not_ready', checks, ...(details ? { details } : {}) },
    { status: ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}

/**
 * The audit chain's last check, for monitoring: a break needs a person, not a restart, so it is
 * told here but never makes the instance unready. Only the state and when it was checked.
 */
async function auditChainState(): Promise<{ state: 'intact' | 'broken' | 'unchecked'; checkedAt?: string }> {
  try {
    const check = await withinDeadline(lastChainCheck(), READY_DATABASE_DEADLINE_MS);
    if (!check) return { state: 'unchecked' };
    return { state: check.intact === 'yes' ? 'intact' : 'broken', checkedAt: check.checkedAt.toISOString() };
  } catch {
    return { state: 'unchecked' };
  }
}
