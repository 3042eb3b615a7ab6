// Runs the shared production server (lib/cli/server.mjs) of the browser tests (playwright.config.ts's webServer) with the
// harness kit, and keeps a copy of everything it prints in a file (e2e/leak-check.spec.ts scans
// it for secrets and personal data) while still passing it through to Playwright.
// Usage: E2E_SERVER_ENV='{"DATA_DIR":"…",…}' node e2e/support/serve-with-log.mjs <port> <log file>
//
// Playwright starts a web server with its own whole environment under the config's variables, so
// the kit's filter of inherited variables has to run here; the variables the config means for
// the server come apart, as JSON in E2E_SERVER_ENV (which the filter then drops).
import os from 'node:os';
import { startNextServer } from '../kit/server.mjs';

const [port, logFile] = [Number(process.argv[2]), process.argv[3]];
if (!port || !logFile || !process.env.E2E_SERVER_ENV) {
  console.error('usage: E2E_SERVER_ENV=\'{"DATA_DIR":…}\' node e2e/support/serve-with-log.mjs <port> <log file>');
  process.exit(2);
}
const { DATA_DIR: dataDir, ...env } = JSON.parse(process.env.E2E_SERVER_ENV);

const server = await startNextServer({
  port,
  dataDir,
  env,
  logFile,
  echo: true,
  // Playwright checks the URL itself.
  readyPath: null,
  // Playwright ends its web servers by killing this process's group: the server stays in it.
  ownGroup: false,
});

// Or by a signal to this process; the server must hear it too, so it can close its data
// directory cleanly.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.stop());
const { code, signal } = await server.exited;
process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0));
