// Zero-config start-up: makes sure the sandbox has a default company and gives the dashboard a
// working API key for it, and (when asked) a webhook endpoint pointing at the dashboard's own
// receiver. Instrumentation calls this and passes the key and secret on as configuration.
import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import { once } from '@/lib/platform/database';
import { getSandboxDb } from '@/lib/sandbox/db';
import { apiKeys } from '@/lib/sandbox/schema';
import { replaceDefaultWebhookEndpoint } from '@/lib/sandbox/webhook-sender/endpoints';
import { forgetAuthenticatedApiKeys, issueApiKey } from './api-keys';
import { createCompany, getDefaultCompany } from './companies';

export const DEFAULT_COMPANY_NAME = 'Sandbox company';

/** The label that marks keys issued here; only these are ever revoked automatically. */
export const STARTUP_KEY_LABEL = 'dashboard (issued at start-up)';

export type SandboxProvision = {
  companyId: string;
  apiKey: string;
  /** The default endpoint's signing secret; only when a webhook URL was given. */
  webhookSecret?: string;
};

export type ProvisionOptions = {
  /** The dashboard's webhook receiver, e.g. http://127.0.0.1:3000/api/webhooks/verification-service. */
  webhookUrl?: string;
};

/**
 * Keys are stored only as hashes, so the previous start's key cannot be handed out again:
 * every start issues a fresh one and revokes the earlier start-up keys, leaving at most one
 * live. Keys made with the CLI are never touched. The default webhook endpoint is renewed the
 * same way (its secret could be reused, but a fresh one per start keeps the two alike and means
 * a secret from an old log or shell history stops working). Endpoints added with the CLI are
 * never touched. Runs once per process: later calls get the first call's answer, whatever
 * options they pass.
 */
export function provisionSandbox(options: ProvisionOptions = {}): Promise<SandboxProvision> {
  return once('sandbox-provision', async () => {
    const db = await getSandboxDb();
    return db.transaction(async (tx) => {
      const company = (await getDefaultCompany(tx)) ?? (await createCompany(tx, { name: DEFAULT_COMPANY_NAME, isDefault: true }));
      await tx
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.companyId, company.id), eq(apiKeys.label, STARTUP_KEY_LABEL), isNull(apiKeys.revokedAt)));
      forgetAuthenticatedApiKeys();
      const issued = await issueApiKey(tx, { companyId: company.id, label: STARTUP_KEY_LABEL });
      if (options.webhookUrl === undefined) return { companyId: company.id, apiKey: issued.apiKey };
      const endpoint = await replaceDefaultWebhookEndpoint(tx, { companyId: company.id, url: options.webhookUrl });
      return { companyId: company.id, apiKey: issued.apiKey, webhookSecret: endpoint.secret };
    });
  });
}
