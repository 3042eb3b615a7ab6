// Whether the verification service answers, for the readiness probe (app/api/ready). The probe is
// anonymous, and each real check is an authenticated call that counts against the key's rate
// limit and writes an audit row at the service. So the answer is shared: one check per
// READINESS_CHECK_FRESH_MS for the whole process, concurrent callers waiting for the same one. A
// flood of probes then costs the service nothing more than one probe every few seconds.
import 'server-only';
import { getServiceConfig } from '@/lib/env';
import { processSingleton } from '@/lib/platform/process-singleton';
import { createSharedResult, type SharedResult } from '@/lib/platform/shared-result';

/** How long one check's answer is given to every caller. */
export const READINESS_CHECK_FRESH_MS = 10_000;
const CHECK_TIMEOUT_MS = 2_000;

/**
 * The contract has no health endpoint, so ask for a verification without an id: any HTTP
 * answer (400 or 403 is expected) proves the service is up; a network error or a 5xx does not.
 */
async function askService(): Promise<boolean> {
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

function sharedServiceCheck(): SharedResult<boolean> {
  // A process singleton: Next.js bundles routes separately, and the window must hold for the process.
  return processSingleton('service-reachability', () => createSharedResult({ check: askService, freshForMs: READINESS_CHECK_FRESH_MS }));
}

/** True when the service answered its most recent check (made at most READINESS_CHECK_FRESH_MS ago). */
export function serviceReachable(): Promise<boolean> {
  return sharedServiceCheck().get();
}
