#!/usr/bin/env node
// `npm run test:load`: a bounded load on loopback against the production build. It starts its
// own `next start` (embedded sandbox, fresh data directory), then runs, one after the other,
// 50 concurrent clients for 20 s against
//   1. the sandbox API: creates (POST /v1/verifications/new) and reads (GET /v1/verifications/{id}),
//   2. the dashboard's read route (GET /api/verifications/{id}, signed in),
// and reports requests/s, p50/p99 latency, 5xx counts, lost writes (every id a create returned
// must be readable afterwards) and the server's RSS before and after. Exits non-zero on any 5xx
// or lost write. Stops everything it started.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { chromium } from '@playwright/test';

const PORT = Number(process.env.LOAD_PORT ?? 3190);
const BASE = `http://localhost:${PORT}`;
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.LOAD_SECONDS ?? 20);
const STAFF = { email: 'load.operator@example.com', password: 'load-operator-password' };

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-load-'));
const cli = (script, args) =>
  JSON.parse(
    execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', '--conditions=react-server', script, ...args], {
      env: { ...process.env, DATA_DIR: dataDir },
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop(),
  );

const company = cli('lib/sandbox/cli.ts', ['company:create', '--name', 'Load company']);
cli('lib/auth/cli.ts', ['create', '--email', STAFF.email, '--role', 'operator', '--password', STAFF.password, '--name', 'Load Operator']);

// The load is the point here: lift the per-key limit (its own tests cover it).
const env = { ...process.env, PORT: String(PORT), DATA_DIR: dataDir, APP_URL: BASE, SANDBOX_RATE_LIMIT_PER_MINUTE: '1000000' };
for (const key of Object.keys(env)) if (key.startsWith('VERIFICATION_API_') || key === 'SANDBOX') delete env[key];
const server = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
let serverLog = '';
server.stdout.on('data', (d) => (serverLog += d));
server.stderr.on('data', (d) => (serverLog += d));

const rssMb = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
};

async function waitForServer() {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`server did not start:\n${serverLog}`);
}

function run(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const summary = (name, result) => ({
  name,
  requests: result.requests.total,
  'req/s': Math.round(result.requests.average),
  'p50 ms': result.latency.p50,
  'p99 ms': result.latency.p99,
  '2xx': result['2xx'],
  non2xx: result.non2xx,
  '5xx': result['5xx'],
  errors: result.errors,
  timeouts: result.timeouts,
});

let exitCode = 0;
try {
  await waitForServer();
  const rssIdle = rssMb();
  const auth = { Authorization: `Bearer ${company.apiKey}`, 'Content-Type': 'application/json' };

  // 1a. Creates through the sandbox API; every returned id is kept to check for lost writes.
  const createdIds = [];
  const creates = await run({
    url: `${BASE}/v1/verifications/new`,
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'Load Person', email: 'load@example.com', chosenPurpose: 'ensuring_compliance', language: 'en' }),
    setupClient: (client) =>
      client.on('body', (body) => {
        try {
          const id = JSON.parse(body.toString()).verificationId;
          if (id) createdIds.push(id);
        } catch {}
      }),
  });

  // 1b. Reads of those ids, round-robin.
  let next = 0;
  const reads = await run({
    url: `${BASE}/v1/verifications/${createdIds[0]}`,
    headers: auth,
    setupClient: (client) => client.setRequest({ path: `/v1/verifications/${createdIds[next++ % createdIds.length]}` }),
    requests: [{ setupRequest: (request) => ({ ...request, path: `/v1/verifications/${createdIds[next++ % createdIds.length]}` }) }],
  });

  // No lost write: every id a create answered with is readable.
  let lost = 0;
  for (let i = 0; i < createdIds.length; i += 200) {
    const batch = createdIds.slice(i, i + 200);
    const statuses = await Promise.all(batch.map(async (id) => (await fetch(`${BASE}/v1/verifications/${id}`, { headers: auth })).status));
    lost += statuses.filter((s) => s !== 200).length;
  }

  // 2. The dashboard's read route, signed in as staff (cookie from a real sign-in in Chromium).
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (await import('node:fs')).existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await browser.newPage();
  await page.goto(`${BASE}/sign-in`);
  await page.getByLabel('E-mail address').fill(STAFF.email);
  await page.getByLabel('Password').fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${BASE}/`);
  await page.goto(`${BASE}/verifications/new`);
  await page.getByLabel('Full name').fill('Dashboard Load Person');
  await page.getByLabel('E-mail address').fill('dash@example.com');
  await page.getByRole('radio', { name: 'Legal obligation' }).check();
  await page.getByRole('button', { name: 'Create verification request' }).click();
  const dashboardId = (await page.getByTestId('verification-id').textContent()).trim();
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  await browser.close();
  const dashboardReads = await run({ url: `${BASE}/api/verifications/${dashboardId}`, headers: { Cookie: cookie } });

  const rssAfter = rssMb();
  const rows = [summary('sandbox creates', creates), summary('sandbox reads', reads), summary('dashboard read route', dashboardReads)];
  console.log(`\nLoad: ${CONNECTIONS} connections × ${DURATION_S} s each, loopback, ${os.cpus().length} cores\n`);
  console.table(rows);
  console.log(`created ids: ${createdIds.length}, lost writes: ${lost}`);
  console.log(`server RSS: ${rssIdle} MB idle → ${rssAfter} MB after load`);
  const fiveXx = rows.reduce((n, r) => n + r['5xx'], 0);
  if (fiveXx > 0 || lost > 0 || createdIds.length === 0) {
    console.error(`FAIL: ${fiveXx} responses were 5xx, ${lost} writes lost`);
    exitCode = 1;
  } else {
    console.log('PASS: no 5xx, no lost write');
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {}
  await new Promise((r) => setTimeout(r, 1500));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
