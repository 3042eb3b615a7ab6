// The composition root: the one place that knows both parts of the app. It decides whether
// the embedded sandbox serves, provisions it, and hands its address and API key to the
// dashboard as configuration (environment variables), exactly as an operator would for the
// real service. The dashboard itself never imports the sandbox.
import { purgeExpiredAudit } from './lib/audit/audit';
import { issueSetupTokenIfNeeded } from './lib/auth/setup';
import { getDb } from './lib/db';
import { closeDatabases, DataDirInUseError } from './lib/db/connection';
import { getEnv, getServiceConfig, InvalidEnvironmentError, resetEnv } from './lib/env';
import { logger } from './lib/log';
import { purgeOldSubmissionKeys } from './lib/verifications/create-verification';
import { purgeExpiredRegisterEntries } from './lib/verifications/retention';

const log = logger.child({ area: 'retention' });

const startedKey = Symbol.for('verification-desk.started');

function sandboxWanted(): boolean {
  if (process.env.SANDBOX === 'on') return true;
  if (process.env.SANDBOX === 'off') return false;
  return !process.env.VERIFICATION_API_URL?.trim();
}

export async function startVerificationDesk(): Promise<void> {
  const holder = globalThis as unknown as Record<symbol, boolean | undefined>;
  if (holder[startedKey]) return;
  holder[startedKey] = true;

  try {
    const env = getEnv(); // fails here, naming the variable, rather than on the first request
    const sandbox = sandboxWanted();
    process.env.SANDBOX = sandbox ? 'on' : 'off';

    const stops: Array<() => unknown> = [];
    if (sandbox) {
      const { getSandboxDb } = await import('./lib/sandbox/db');
      const sandboxDb = await getSandboxDb({ waitForLockMs: 5_000 });
      if (!process.env.VERIFICATION_API_URL?.trim()) {
        // Zero-config: the dashboard talks to the sandbox over loopback HTTP, like to any
        // service, and receives its webhooks on its own receiver, signed with a fresh secret.
        const { provisionSandbox } = await import('./lib/sandbox/provision');
        const { updateCompanySettings } = await import('./lib/sandbox/companies');
        const { getDefaultCompanySettingsFromEnv } = await import('./lib/sandbox/config');
        const loopback = `http://127.0.0.1:${env.PORT}`;
        const { apiKey, companyId, webhookSecret } = await provisionSandbox({
          webhookUrl: `${loopback}/api/webhooks/verification-service`,
        });
        await updateCompanySettings(sandboxDb, companyId, getDefaultCompanySettingsFromEnv());
        process.env.VERIFICATION_API_URL = loopback;
        process.env.VERIFICATION_API_KEY = apiKey;
        if (webhookSecret) process.env.WEBHOOK_SECRET = webhookSecret;
      }
      const { startSandboxJobs } = await import('./lib/sandbox/jobs');
      const { startWebhookDelivery } = await import('./lib/sandbox/webhooks/deliver');
      const { getSweepIntervalMs } = await import('./lib/sandbox/config');
      stops.push(startSandboxJobs({ intervalMs: getSweepIntervalMs() }), startWebhookDelivery());
    }
    resetEnv();
    const service = getServiceConfig();
    await getDb();

    const appUrl = getEnv().APP_URL ?? `http://localhost:${getEnv().PORT}`;
    const setupToken = await issueSetupTokenIfNeeded();
    startRetentionJobs();
    // For the operator's terminal, not a log collector: plain text, on purpose (and the first-run
    // test reads the setup link from it). Everything after start-up goes through lib/log.
    console.log(
      [
        '',
        `  Verification Desk is ready: ${appUrl}`,
        ...(setupToken
          ? [
              '',
              '  No staff account exists yet. Create the first administrator (this link works once):',
              `  ${appUrl}/setup?token=${setupToken}`,
              '',
            ]
          : []),
        sandbox
          ? `  Service: embedded sandbox at ${service.baseUrl} (nobody is really contacted; messages at ${appUrl}/outbox)`
          : `  Service: ${service.baseUrl}`,
        `  Data: ${getEnv().DATA_DIR}`,
        '',
      ].join('\n'),
    );

    const shutdown = () => {
      void Promise.allSettled(stops.map((stop) => stop()))
        .then(() => closeDatabases())
        .finally(() => process.exit(0));
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  } catch (error) {
    if (error instanceof InvalidEnvironmentError || error instanceof DataDirInUseError) {
      console.error(`\nVerification Desk cannot start.\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The dashboard's retention, now and every hour: audit entries past AUDIT_RETENTION_DAYS, and
 * register rows whose verification data is due for purging (kept_until).
 */
function startRetentionJobs(): void {
  const purge = async () => {
    try {
      const purged = await purgeExpiredAudit(getEnv().AUDIT_RETENTION_DAYS);
      if (purged > 0) log.info({ purged, retentionDays: getEnv().AUDIT_RETENTION_DAYS }, 'audit entries past their retention purged');
      const removed = await purgeExpiredRegisterEntries();
      if (removed > 0) log.info({ removed }, 'register entries past their retention removed');
      await purgeOldSubmissionKeys();
    } catch (error) {
      log.error({ err: error }, 'retention purge failed');
    }
  };
  void purge();
  setInterval(purge, HOUR_MS).unref();
}
