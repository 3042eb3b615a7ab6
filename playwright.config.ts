// Browser tests: a real Chromium against `next start` (the production build) with the
// embedded sandbox, on a fresh data directory per run.
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, findHeadlessChromium } from './e2e/kit/browser.mjs';
import { seed } from './e2e/kit/cli.mjs';
import canaries from './e2e/support/canaries.json' with { type: 'json' };
import { RECORDING_PROXY_PORT, serverLogsDir, trafficDir } from './e2e/support/captures';
import { allSeededAccounts, STAFF, storageStateOf } from './e2e/support/staff';

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE_URL = `http://localhost:${PORT}`;

// The config is evaluated by the runner and again by every worker; prepare the data directory
// once, in the runner, and hand it to the workers through the environment they inherit.
if (!process.env.E2E_DATA_DIR) {
  removeStaleDataDirs();
  // A migrated, empty store, copied by every spec that starts a server of its own (e2e/support/data-dirs.ts)
  // and by the shared server's directory below: the database is created from nothing once per run.
  const templateDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-e2e-template-'));
  seed(templateDir, []);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-e2e-'));
  cpSync(templateDir, dataDir, { recursive: true });
  // One process for all of it (e2e/support/seed.ts): the CLIs are proven by Vitest, here they are setup.
  const [other] = seed(dataDir, [
    { sandbox: ['company:create', '--name', 'Another company'] },
    ...Object.entries(STAFF).map(([role, staff]) => ({ staff: { ...staff, role } })),
    ...allSeededAccounts().map((staff) => ({ staff })),
  ]);
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_TEMPLATE_DIR = templateDir;
  process.env.E2E_OTHER_COMPANY_KEY = other.apiKey;
  process.env.E2E_BASE_URL = BASE_URL;
}

const dataDir = process.env.E2E_DATA_DIR ?? '';

const launchOptions = {
  executablePath: findHeadlessChromium(),
  args: CHROMIUM_ARGS,
  // Every page of every context goes through the recording proxy (e2e/leak-check.spec.ts reads
  // what it saw). A browser-level setting, so contexts the specs create themselves are covered.
  // `<-loopback>`: Chromium never proxies localhost unless told so, and all our servers are local.
  proxy: { server: `http://127.0.0.1:${RECORDING_PROXY_PORT}`, bypass: '<-loopback>' },
};

// Tests act as an operator unless they say otherwise.
const chromiumUse = { ...devices['Desktop Chrome'], storageState: storageStateOf('operator'), launchOptions };

// Longest first (see `projects`); measured on the 2-core machine, a minute and a half to two and a half each.
const LONGEST_SPECS = /(upstream-faults|two-factor|staff-and-sign-in|single-sign-on)\.spec\.ts/;

export default defineConfig({
  testDir: './e2e',
  // Budgets for a contributor's busy laptop: waiting is always for a state (a URL, a text, a
  // response), so a generous limit costs a passing test nothing and spares a slow one a false
  // failure. Tests with more work than usual (axe over many pages) triple theirs with test.slow().
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two by default: the servers and Chromium share the machine's two cores. E2E_WORKERS to try others.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    baseURL: BASE_URL,
    // A trace is recorded only when a failed test runs again (CI retries once): recording one for
    // every test, to keep the failures', cost about a third of the browser tests' time on two
    // cores (measured: four page-walking specs, 94 s without, 143 s with). To trace a local run:
    // `npx playwright test --trace on`.
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  // Playwright runs projects in phases: a project starts once every project it depends on is done,
  // and within a phase spec files are handed to the workers in the order listed here (files of one
  // project alphabetically). Spec files are the unit of work (fullyParallel is off, as most share a
  // server they start in beforeAll), so the longest go first: a 2-minute spec dealt last would
  // leave the other worker idle for that long.
  projects: [
    { name: 'sign-in', testMatch: /auth\.setup\.ts/, use: { launchOptions } },
    // Two instances of the build on one throwaway PostgreSQL behind a round-robin proxy, started by
    // the spec itself (e2e/support/two-instances.ts); its own staff, signed in per test. Their
    // output goes to the run's logs directory, so the leak check reads it too. It needs nothing of
    // the sign-in project, but depending on it puts it in the same phase as the browser specs.
    {
      name: 'two-instances',
      dependencies: ['sign-in'],
      testMatch: /two-instances\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: findHeadlessChromium(), args: CHROMIUM_ARGS } },
    },
    // The same browser and session as `chromium`, for the specs that take longest (a minute or more).
    { name: 'chromium-long', dependencies: ['sign-in'], testMatch: LONGEST_SPECS, use: chromiumUse },
    {
      name: 'chromium',
      dependencies: ['sign-in'],
      testIgnore: [/leak-check\.spec\.ts|two-instances\.spec\.ts/, LONGEST_SPECS],
      use: chromiumUse,
    },
    // Last, once every other test has run: nothing secret in the servers' output or the browser's traffic.
    { name: 'leak-check', dependencies: ['chromium-long', 'chromium', 'two-instances'], testMatch: /leak-check\.spec\.ts/ },
  ],
  webServer: [
    {
      // next start (the harness kit's: none of the runner's service, port or data settings, so the
      // embedded sandbox serves in zero-config mode), with a copy of all it prints in the run's logs directory.
      command: `node e2e/support/serve-with-log.mjs ${PORT} ${JSON.stringify(path.join(serverLogsDir(dataDir), 'server.log'))}`,
      url: BASE_URL,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        // The server's own variables, apart from what Playwright passes on (see serve-with-log.mjs).
        E2E_SERVER_ENV: JSON.stringify({
          DATA_DIR: dataDir,
          APP_URL: BASE_URL,
          // A recognisable auth secret, so the leak check can look for it; the sandbox generates the
          // API key and webhook secret at start (their shapes are checked instead).
          BETTER_AUTH_SECRET: canaries.BETTER_AUTH_SECRET,
          // As if behind one reverse proxy: the public-entry tests (bad-input.spec.ts) send their
          // failed sign-ins "from" another network with X-Forwarded-For, so they do not spend the
          // per-network ceiling of the browser tests' own loopback address.
          TRUST_PROXY: '1',
          // A Belgian team's: the SMS field also takes Belgian national numbers.
          DEFAULT_PHONE_REGION: 'BE',
          // The pseudo-language (lib/i18n/pseudo.ts), for a browser that asks with its cookie:
          // catalog-coverage.spec.ts finds any word on a page that bypassed the catalogs.
          PSEUDO_LANGUAGE: 'on',
        }),
      },
    },
    {
      name: 'proxy',
      command: 'node e2e/support/recording-proxy.mjs',
      url: `http://127.0.0.1:${RECORDING_PROXY_PORT}/__recorder/ready`,
      reuseExistingServer: false,
      timeout: 10_000,
      env: { RECORDING_PROXY_PORT: String(RECORDING_PROXY_PORT), RECORDING_DIR: trafficDir(dataDir) },
    },
  ],
});

/** Data directories of earlier runs (older than an hour, so never a running one's). */
function removeStaleDataDirs(): void {
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of readdirSync(os.tmpdir())) {
    if (!name.startsWith('verification-desk-')) continue;
    const dir = path.join(os.tmpdir(), name);
    try {
      if (statSync(dir).mtimeMs < hourAgo) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Already gone, or not ours to remove.
    }
  }
}
