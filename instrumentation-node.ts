// The composition root: the one place that knows both parts of the app. It decides whether
// the embedded sandbox serves, provisions it, and hands its address and API key to the
// dashboard as configuration (environment variables), exactly as an operator would for the
// real service. The dashboard itself never imports the sandbox.
import { purgeExpiredAudit } from './lib/audit/audit';
import { issueSetupTokenIfNeeded } from './lib/auth/setup';
import { closeDatabases, DataDirInUseError } from './lib/db/connection';
import { getDb } from './lib/db';
import { getEnv, getServiceConfig, InvalidEnvironmentError, resetEnv } from './lib/env';

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

    if (sandbox) {
      const { getSandboxDb } = await import('./lib/sandbox/db');
      await getSandboxDb({ waitForLockMs: 5_000 });
      if (!process.env.VERIFICATION_API_URL?.trim()) {
        // Zero-config: the dashboard talks to the sandbox over loopback HTTP, like to any service.
        const { provisionSandbox } = await import('./lib/sandbox/provision');
        const { apiKey } = await provisionSandbox();
        process.env.VERIFICATION_API_URL = `http://127.0.0.1:${env.PORT}`;
        process.env.VERIFICATION_API_KEY = apiKey;
      }
    }
    resetEnv();
    const service = getServiceConfig();
    await getDb();

    const appUrl = getEnv().APP_URL ?? `http://localhost:${getEnv().PORT}`;
    const setupToken = await issueSetupTokenIfNeeded();
    startAuditPurge();
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
      void closeDatabases().finally(() => process.exit(0));
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

/** Purges audit entries past AUDIT_RETENTION_DAYS now and every hour. */
function startAuditPurge(): void {
  const purge = async () => {
    try {
      const purged = await purgeExpiredAudit(getEnv().AUDIT_RETENTION_DAYS);
      if (purged > 0) console.log(`[audit] purged ${purged} entries older than ${getEnv().AUDIT_RETENTION_DAYS} days`);
    } catch (error) {
      console.error('[audit] purge failed', error);
    }
  };
  void purge();
  setInterval(purge, HOUR_MS).unref();
}
