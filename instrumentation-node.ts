// The composition root: the one place that knows both parts of the app. It decides whether
// the embedded sandbox serves, provisions it, and hands its address and API key to the
// dashboard as configuration (environment variables), exactly as an operator would for the
// real service. The dashboard itself never imports the sandbox.
import { claimSetupAtStart, isSetupTokenValid } from './lib/auth/setup';
import {
  pendingSetupLinkLines,
  readSetupLinkFile,
  removeSetupLinkFile,
  type SetupLinkNotice,
  setupLinkFilePath,
  setupLinkLines,
  setupTokenOfLink,
  writeSetupLinkFile,
} from './lib/auth/setup-link';
import { getDb } from './lib/db';
import { getEnv, getServiceConfig, InvalidEnvironmentError, resetEnv } from './lib/env';
import { startAuditChainJobs } from './lib/jobs/audit-chain-jobs';
import { startRetentionJobs } from './lib/jobs/retention-jobs';
import { closeDatabases, describeDatabaseUrl } from './lib/platform/database';
import { DataDirInUseError } from './lib/platform/embedded-database';
import { processSingleton } from './lib/platform/process-singleton';
import { isSandboxEnabled } from './lib/platform/sandbox-switch';
import { installServerActionBodyCap } from './lib/proxy/server-action-body-cap';

/**
 * The first-run link while no staff account exists: issued by the first instance to start (and
 * written to its file in the data directory), re-shown by that instance after a restart, and
 * otherwise only announced (pendingSetupLinkLines). Nothing, and a leftover file removed, once
 * someone can sign in.
 */
async function prepareSetupLink(appUrl: string, dataDir: string): Promise<string[]> {
  const terminal = process.stdout.isTTY === true;
  const setup = await claimSetupAtStart();
  if (setup.state === 'closed') {
    await removeSetupLinkFile(dataDir);
    return [];
  }
  if (setup.state === 'pending') {
    // This instance's own earlier link (a restart) can be shown again; anything else is stale.
    const earlier = await readSetupLinkFile(dataDir);
    const token = earlier ? setupTokenOfLink(earlier) : null;
    if (earlier && token && (await isSetupTokenValid(token))) {
      return setupLinkLines({ link: earlier, file: setupLinkFilePath(dataDir) }, { terminal });
    }
    await removeSetupLinkFile(dataDir);
    return pendingSetupLinkLines(setup.issuedAt);
  }
  const link = `${appUrl}/setup?token=${setup.token}`;
  let notice: SetupLinkNotice;
  try {
    notice = { link, file: await writeSetupLinkFile(dataDir, link) };
  } catch (error) {
    // The server still starts: a terminal shows the link, and the staff CLI can create an admin.
    notice = { link, file: null, problem: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
  return setupLinkLines(notice, { terminal });
}

/** Raised for a sandbox setting that cannot be used; start-up stops with its message. */
class SandboxConfigurationError extends Error {}

export async function startVerificationDesk(): Promise<void> {
  const start = processSingleton('started', () => ({ done: false }));
  if (start.done) return;
  start.done = true;
  // Before the first request is served: a server action's body is cut off at its limit as it arrives.
  installServerActionBodyCap();

  try {
    const env = getEnv(); // fails here, naming the variable, rather than on the first request
    const sandbox = isSandboxEnabled();
    process.env.SANDBOX = sandbox ? 'on' : 'off';

    const stops: Array<() => unknown> = [];
    if (sandbox) {
      const { getSandboxConfig } = await import('./lib/sandbox/config');
      let config: ReturnType<typeof getSandboxConfig>;
      try {
        config = getSandboxConfig();
      } catch (error) {
        throw new SandboxConfigurationError((error as Error).message);
      }
      const { getSandboxDb } = await import('./lib/sandbox/db');
      const sandboxDb = await getSandboxDb({ waitForLockMs: 5_000 });
      if (env.DATABASE_URL) {
        // Several instances share this store: the sandbox serves only what its CLI provisioned.
        const { sharedStoreSandboxProblem } = await import('./lib/sandbox/admin/shared-store-check');
        const problem = await sharedStoreSandboxProblem(sandboxDb, { url: env.VERIFICATION_API_URL, apiKey: env.VERIFICATION_API_KEY });
        if (problem) throw new SandboxConfigurationError(problem);
      } else if (!process.env.VERIFICATION_API_URL?.trim()) {
        // Zero-config: the dashboard talks to the sandbox over loopback HTTP, like to any
        // service, and receives its webhooks on its own receiver, signed with a fresh secret.
        const { provisionSandbox } = await import('./lib/sandbox/admin/provision');
        const { updateCompanySettings } = await import('./lib/sandbox/admin/companies');
        const loopback = `http://127.0.0.1:${env.PORT}`;
        const { apiKey, companyId, webhookSecret } = await provisionSandbox({
          webhookUrl: `${loopback}/api/webhooks/verification-service`,
        });
        await updateCompanySettings(sandboxDb, companyId, config.defaultCompany);
        process.env.VERIFICATION_API_URL = loopback;
        process.env.VERIFICATION_API_KEY = apiKey;
        if (webhookSecret) process.env.WEBHOOK_SECRET = webhookSecret;
      }
      const { startSandboxJobs } = await import('./lib/sandbox/records/jobs');
      const { startWebhookDelivery } = await import('./lib/sandbox/webhook-sender/worker');
      stops.push(startSandboxJobs({ intervalMs: config.sweepIntervalMs }), startWebhookDelivery());
    }
    resetEnv();
    const service = getServiceConfig();
    await getDb();

    const appUrl = getEnv().APP_URL ?? `http://localhost:${getEnv().PORT}`;
    const setupLines = await prepareSetupLink(appUrl, getEnv().DATA_DIR);
    stops.push(startRetentionJobs(), startAuditChainJobs());
    // For the operator, plain text, on purpose. Everything after start-up goes through lib/log.
    // The setup link itself only when stdout is a terminal: otherwise this output may be
    // collected as logs, and the link makes whoever reads it first an administrator.
    console.log(
      [
        '',
        `  Verification Desk is ready: ${appUrl}`,
        ...setupLines,
        sandbox
          ? `  Service: embedded sandbox at ${service.baseUrl} (nobody is really contacted; messages at ${appUrl}/outbox)`
          : `  Service: ${service.baseUrl}`,
        getEnv().DATABASE_URL ? `  Data: PostgreSQL at ${describeDatabaseUrl(getEnv().DATABASE_URL!)}` : `  Data: ${getEnv().DATA_DIR}`,
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
    if (error instanceof InvalidEnvironmentError || error instanceof DataDirInUseError || error instanceof SandboxConfigurationError) {
      console.error(`\nVerification Desk cannot start.\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
