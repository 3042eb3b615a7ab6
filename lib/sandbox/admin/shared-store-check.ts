// Whether the embedded sandbox may serve on a shared PostgreSQL store (DATABASE_URL). Its
// zero-config provisioning belongs to one process: each start issues a fresh API key and
// webhook secret and revokes the previous start's, so two instances would keep voiding each
// other's keys. On a shared store the sandbox serves only a company and key provisioned once
// with its CLI, which every instance is then configured with.
import 'server-only';
import type { SandboxDb } from '@/lib/sandbox/db';
import { authenticateApiKey } from './api-keys';

export const PROVISION_COMMAND = 'npm run sandbox -- company:create --name NAME';

const HOW = `provision a company and key once with \`${PROVISION_COMMAND}\` (with the same DATABASE_URL), then give every instance VERIFICATION_API_URL (the instances' own address) and VERIFICATION_API_KEY (the key it printed); or set SANDBOX=off and point them at the real service`;

/** Why the sandbox cannot serve on this shared store, or null when it can. Never echoes the key. */
export async function sharedStoreSandboxProblem(
  db: SandboxDb,
  service: { url: string | undefined; apiKey: string | undefined },
): Promise<string | null> {
  if (!service.url || !service.apiKey) {
    return `The embedded sandbox (SANDBOX=on, or VERIFICATION_API_URL unset) cannot provision itself with DATABASE_URL: that only works for a single instance. ${HOW[0]!.toUpperCase()}${HOW.slice(1)}.`;
  }
  const authentication = await authenticateApiKey(db, `Bearer ${service.apiKey}`);
  if (!authentication.ok) {
    return `VERIFICATION_API_KEY is not a live API key of the embedded sandbox on DATABASE_URL (${authentication.error}). With SANDBOX=on and DATABASE_URL, ${HOW}.`;
  }
  return null;
}
