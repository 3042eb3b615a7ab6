// The load test's two-instance run (`npm run test:load`, after the single-instance run; alone:
// `npm run test:load:instances` on the current build): the deployment of
// e2e/support/two-instances.ts — instances A and B of the production build on one throwaway
// PostgreSQL, behind the round-robin proxy — under the same rules as load-test.mjs: no 5xx, no
// lost write, every webhook applied exactly once. Every request goes through the proxy, so
// both instances share the load, and the run shows that they did.
//
// Phases, one after the other, LOAD_CONNECTIONS (default 50) clients for LOAD_SECONDS (default 20):
//   1. the sandbox API: creates, then reads of what was created (every returned id must be readable);
//   2. the dashboard's read route, signed in;
//   3. a burst of 500 signed webhooks (100 duplicates, each sent together with its original),
//      50 in flight; the database must hold one receipt per webhook-id.
// LOAD_INSTANCES_PORT: the proxy's port (the instances take the next two); unset, 3180.
import os from 'node:os';
import { chromium } from '@playwright/test';
import autocannon from 'autocannon';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { CHROMIUM_ARGS, findChromium } from '../kit/browser.mjs';
import { assertPortFree } from '../kit/ports.mjs';
import { rssMb } from '../kit/processes.mjs';
import { INSTANCE_HEADER } from '../support/round-robin-proxy';
import { startTwoInstances, type TwoInstances } from '../support/two-instances';

const BASE_PORT = Number(process.env.LOAD_INSTANCES_PORT ?? 3180);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.LOAD_SECONDS ?? 20);
const STAFF = { email: 'twin.load@example.com', password: 'twin-load-password', name: 'Twin Load', role: 'operator' } as const;
const BURST = { unique: 400, duplicates: 100, inFlight: 50 };

type Row = Record<string, string | number>;

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false });
  });
}

const summary = (name: string, result: autocannon.Result): Row => ({
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

/** Requests each instance answered during `from`..now of the proxy's history. */
function spread(deployment: TwoInstances, from: number): string {
  const counts = { a: 0, b: 0 } as Record<string, number>;
  for (const exchange of deployment.proxy.history().slice(from)) counts[exchange.instance] = (counts[exchange.instance] ?? 0) + 1;
  return `A ${counts.a}, B ${counts.b}`;
}

async function main(): Promise<number> {
  for (const port of [BASE_PORT, BASE_PORT + 1, BASE_PORT + 2]) {
    await assertPortFree(port, 'set LOAD_INSTANCES_PORT to the first of three free ports');
  }
  const deployment = await startTwoInstances({
    basePort: BASE_PORT,
    staff: [STAFF],
    // The load is the point here: lift the per-key and per-staff read limits (their own tests cover them).
    env: { SANDBOX_RATE_LIMIT_PER_MINUTE: '1000000', READ_RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  try {
    const rss = () => `A ${rssMb(deployment.instances.a.server()!.pid, 0)} MB, B ${rssMb(deployment.instances.b.server()!.pid, 0)} MB`;
    const rssIdle = rss();
    const auth = { Authorization: `Bearer ${deployment.company.apiKey}`, 'Content-Type': 'application/json' };
    const rows: Row[] = [];

    // 1a. Creates; every returned id is kept to check for lost writes.
    let mark = deployment.proxy.history().length;
    const createdIds: string[] = [];
    const creates = await run({
      url: `${deployment.url}/v1/verifications/new`,
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Load Person', email: 'load@example.com', chosenPurpose: 'ensuring_compliance', language: 'en' }),
      setupClient: (client) =>
        client.on('body', (body: Buffer) => {
          try {
            const id = JSON.parse(body.toString()).verificationId;
            if (id) createdIds.push(id);
          } catch {}
        }),
    });
    rows.push({ ...summary('sandbox creates', creates), instances: spread(deployment, mark) });

    // 1b. Reads of those ids, round-robin.
    mark = deployment.proxy.history().length;
    let next = 0;
    const reads = await run({
      url: `${deployment.url}/v1/verifications/${createdIds[0]}`,
      headers: auth,
      requests: [{ setupRequest: (request) => ({ ...request, path: `/v1/verifications/${createdIds[next++ % createdIds.length]}` }) }],
    });
    rows.push({ ...summary('sandbox reads', reads), instances: spread(deployment, mark) });

    // No lost write: every id a create answered with is readable, whichever instance is asked.
    let lost = 0;
    for (let i = 0; i < createdIds.length; i += 200) {
      const statuses = await Promise.all(
        createdIds.slice(i, i + 200).map(async (id) => (await fetch(`${deployment.url}/v1/verifications/${id}`, { headers: auth })).status),
      );
      lost += statuses.filter((status) => status !== 200).length;
    }

    // 2. The dashboard's read route, signed in through the proxy (a real sign-in in Chromium).
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    const page = await browser.newPage({ baseURL: deployment.url });
    await page.goto('/sign-in');
    await page.getByLabel('E-mail address').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('signed-in-as').waitFor();
    await page.goto('/verifications/new');
    await page.getByLabel('Full name').fill('Dashboard Load Person');
    await page.getByLabel('E-mail address').fill('dash@example.com');
    await page.getByRole('radio', { name: 'Legal obligation' }).check();
    await page.getByRole('button', { name: 'Create verification request' }).click();
    const dashboardId = ((await page.getByTestId('verification-id').textContent()) ?? '').trim();
    const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    await browser.close();
    mark = deployment.proxy.history().length;
    const dashboardReads = await run({ url: `${deployment.url}/api/verifications/${dashboardId}`, headers: { Cookie: cookie } });
    rows.push({ ...summary('dashboard read route', dashboardReads), instances: spread(deployment, mark) });
    const rssAfterReads = rss();

    // 3. The webhook burst, each duplicate sent at the same moment as its original, to the other instance.
    mark = deployment.proxy.history().length;
    const burst = await webhookBurst(deployment, createdIds);
    rows.push({ ...burst.row, instances: spread(deployment, mark) });
    const rssAfter = rss();

    console.log(
      `\nTwo instances on PostgreSQL behind a round-robin proxy: ${CONNECTIONS} connections × ${DURATION_S} s each, ${os.cpus().length} cores\n`,
    );
    console.table(rows);
    console.log(`created ids: ${createdIds.length}, lost writes: ${lost}`);
    console.log(`RSS: ${rssIdle} idle → ${rssAfterReads} after the read phases → ${rssAfter} after the burst`);

    const problems = [...burst.problems];
    const client = new pg.Client({ connectionString: deployment.databaseUrl });
    await client.connect();
    try {
      const { rows: receipts } = await client.query<{ n: number }>(
        'select count(*)::int as n from webhook_receipts where webhook_id like $1',
        [`${burst.prefix}%`],
      );
      if (receipts[0]!.n !== BURST.unique) problems.push(`${receipts[0]!.n} receipts stored for ${BURST.unique} webhook-ids`);
    } finally {
      await client.end();
    }

    const fiveXx = rows.reduce((n, row) => n + Number(row['5xx'] ?? 0), 0);
    if (fiveXx > 0 || lost > 0 || createdIds.length === 0 || problems.length > 0) {
      console.error(
        `FAIL (two instances): ${fiveXx} responses were 5xx, ${lost} writes lost${problems.length ? `\n  ${problems.slice(0, 20).join('\n  ')}` : ''}`,
      );
      return 1;
    }
    console.log('PASS (two instances): no 5xx, no lost write, every webhook applied exactly once');
    return 0;
  } finally {
    await deployment.stop();
  }
}

/** 400 unique deliveries and 100 copies (each beside its original, on the other instance), `inFlight` at a time. */
async function webhookBurst(deployment: TwoInstances, ids: string[]) {
  const webhook = new Webhook(deployment.webhookSecret);
  const prefix = `msg_twin_load_${Date.now().toString(36)}_`;
  const plan: Array<{ webhookId: string; body: string; instance: string }> = [];
  for (let n = 0; n < BURST.unique; n++) {
    const body = JSON.stringify({
      type: 'verification.created',
      timestamp: new Date().toISOString(),
      data: { verificationId: ids[n % Math.min(ids.length, 150)] },
    });
    const instance = n % 2 === 0 ? 'a' : 'b';
    plan.push({ webhookId: `${prefix}${n}`, body, instance });
    if (n % 4 === 0) plan.push({ webhookId: `${prefix}${n}`, body, instance: instance === 'a' ? 'b' : 'a' });
  }
  const answers: Array<{ webhookId: string; status: number; result?: string; ms: number }> = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: BURST.inFlight }, async () => {
      while (next < plan.length) {
        const delivery = plan[next++]!;
        const at = new Date();
        const t = performance.now();
        let status = 0;
        let result: string | undefined;
        try {
          const response = await fetch(`${deployment.url}/api/webhooks/verification-service`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'webhook-id': delivery.webhookId,
              'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
              'webhook-signature': webhook.sign(delivery.webhookId, at, delivery.body),
              [INSTANCE_HEADER]: delivery.instance,
            },
            body: delivery.body,
          });
          status = response.status;
          result = ((await response.json().catch(() => ({}))) as { status?: string }).status;
        } catch {}
        answers.push({ webhookId: delivery.webhookId, status, result, ms: performance.now() - t });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const latencies = answers.map((a) => a.ms).sort((x, y) => x - y);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  const processed = new Map<string, number>();
  for (const a of answers) if (a.result === 'processed') processed.set(a.webhookId, (processed.get(a.webhookId) ?? 0) + 1);
  const problems: string[] = [];
  for (const a of answers) if (a.status !== 200) problems.push(`${a.webhookId} answered ${a.status}`);
  for (const [id, n] of processed) if (n > 1) problems.push(`double application: ${id} answered "processed" ${n} times`);
  if (processed.size !== BURST.unique) problems.push(`${processed.size} of ${BURST.unique} webhook-ids answered "processed"`);
  return {
    prefix,
    problems,
    row: {
      name: 'webhook burst',
      requests: answers.length,
      'req/s': Math.round(answers.length / seconds),
      'p50 ms': at(0.5),
      'p99 ms': at(0.99),
      '2xx': answers.filter((a) => a.status >= 200 && a.status < 300).length,
      non2xx: answers.filter((a) => a.status < 200 || a.status >= 300).length,
      '5xx': answers.filter((a) => a.status >= 500).length,
      errors: answers.filter((a) => a.status === 0).length,
      timeouts: 0,
    } satisfies Row,
  };
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(error);
}
process.exit(exitCode);
