// Readiness: can this instance do its job — is its database reachable, and does the
// verification service answer? 200 when both hold, 503 otherwise. Only the names of the checks
// and ok/failed are reported (no errors, addresses or versions).
import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { getServiceConfig } from '@/lib/env';

export const dynamic = 'force-dynamic';

const CHECK_TIMEOUT_MS = 2_000;

async function databaseReachable(): Promise<boolean> {
  try {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/**
 * The contract has no health endpoint, so ask for a verification without an id: any HTTP
 * answer (400 or 403 is expected) proves the service is up; a network error or a 5xx does not.
 */
async function serviceReachable(): Promise<boolean> {
  try {
    const { baseUrl, apiKey } = getServiceConfig();
    const response = await fetch(`${baseUrl}/v1/verifications/`, {
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      redirect: 'manual',
      cache: 'no-store',
    });
    await response.body?.cancel();
    return response.status < 500;
  } catch {
    return false;
  }
}

export async function GET() {
  const [database, service] = await Promise.all([databaseReachable(), serviceReachable()]);
  const ready = database && service;
  return Response.json(
    { status: ready ? 'ready' : 'not_ready', checks: { database: database ? 'ok' : 'failed', service: service ? 'ok' : 'failed' } },
    { status: ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
