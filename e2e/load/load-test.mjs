#!/usr/bin/env node
// `npm run test:load`: a bounded load on loopback against the production build. It starts its
// own `next start` (embedded sandbox, fresh data directory), then runs, one after the other,
// 50 concurrent clients for 20 s against
//   1. the sandbox API: creates (POST /v1/verifications/new) and reads (GET /v1/verifications/{id}),
//   2. the dashboard's read route (GET /api/verifications/{id}, signed in),
//   3. the webhook receiver: a burst of 500 signed deliveries, 20% of them duplicates, 50 in
//      flight, for verifications that exist in the sandbox (some in the dashboard's register,
//      finished by "the person" just before, so the burst carries real status changes),
// and reports requests/s, p50/p99 latency, 5xx counts, lost writes (every id a create returned
// must be readable afterwards) and the server's RSS before and after. For the burst, once the
// server has stopped, it reads the data directory to check that each webhook-id was applied
// exactly once (one receipt, one re-read, one audit entry per real status change). Exits non-zero
// on any 5xx, lost write or double application. Stops everything it started.
//
// The server runs the embedded sandbox but not in zero-config mode: zero-config makes up its
// webhook secret at start-up and tells no one, which is right for the product. Here, as an
// operator would, the script issues the dashboard its own sandbox API key with the CLI and
// configures SANDBOX=on, VERIFICATION_API_URL (the server itself), VERIFICATION_API_KEY and a
// WEBHOOK_SECRET it generates, so it can sign deliveries the way the service does.
//
// LOAD_PORT: the server's port (refused if busy; unset, the first free one from 3190 to 3199).
// LOAD_CONNECTIONS (default 50) and LOAD_SECONDS (default 20) size the three autocannon phases.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import autocannon from 'autocannon';
import { Webhook } from 'standardwebhooks';
import { CHROMIUM_ARGS, findChromium } from '../kit/browser.mjs';
import { createApiKey, createCompany, createStaffUser, runCli } from '../kit/cli.mjs';
import { findFreePort } from '../kit/ports.mjs';
import { rssMb } from '../kit/processes.mjs';
import { sandboxServerEnv, startNextServer } from '../kit/server.mjs';
import { newWebhookSecret } from '../kit/webhook-secret.mjs';

const PORT = process.env.LOAD_PORT ? Number(process.env.LOAD_PORT) : await findFreePort({ from: 3190, to: 3199 });
const BASE = `http://localhost:${PORT}`;
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const DURATION_S = Number(process.env.LOAD_SECONDS ?? 20);
const STAFF = { email: 'load.operator@example.com', password: 'load-operator-password', name: 'Load Operator', role: 'operator' };

const BURST = { unique: 400, duplicates: 100, concurrentCopies: 50, inFlight: 50, verifications: 150, forgeries: 10 };
const BURST_PREFIX = `msg_load_${Date.now().toString(36)}_`;
const PERSONS = 6; // dashboard requests the person finishes before the burst

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-load-'));
const company = createCompany(dataDir, 'Load company');
// The dashboard's own key for the same company: the load's API calls and the dashboard's are
// two integrations, as they would be in production.
const dashboardKey = createApiKey(dataDir, company.companyId).apiKey;
createStaffUser(dataDir, STAFF);
const webhookSecret = newWebhookSecret();

/** The server, once started (the finally block stops it, whatever failed). */
let server;
const serverRss = () => rssMb(server.pid, 0);

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
  server = await startNextServer({
    port: PORT,
    dataDir,
    env: {
      ...sandboxServerEnv({ port: PORT, apiKey: dashboardKey, webhookSecret }),
      // The load is the point here: lift the per-key and per-staff read limits (their own tests cover them).
      SANDBOX_RATE_LIMIT_PER_MINUTE: '1000000',
      READ_RATE_LIMIT_PER_MINUTE: '1000000',
    },
    // Stopped before the data directory is read: time to close the database cleanly.
    stopGraceMs: 10_000,
    busyHint: 'set LOAD_PORT to a free port, or leave it unset',
  });
  const rssIdle = serverRss();
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
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
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
  // Requests in the dashboard's register for the burst to change: shareable links, so "the
  // person" can finish them below without any e-mail.
  const personRequests = [];
  for (let i = 0; i < PERSONS; i++) {
    await page.goto(`${BASE}/verifications/new`);
    await page.getByRole('switch', { name: 'Shareable link' }).check();
    await page.getByLabel('Full name').fill(`Burst Person ${i}`);
    await page.getByRole('radio', { name: 'Legal obligation' }).check();
    await page.getByRole('button', { name: 'Create verification request' }).click();
    const id = (await page.getByTestId('verification-id').textContent()).trim();
    const link = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue();
    personRequests.push({ id, link, outcome: i % 2 === 0 ? 'completed' : 'failed' });
  }
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  await browser.close();
  const dashboardReads = await run({ url: `${BASE}/api/verifications/${dashboardId}`, headers: { Cookie: cookie } });
  const rssAfterReads = serverRss();

  // 3. The webhook burst. First the person finishes the requests. The sandbox has no webhook
  // endpoint in this run, so the dashboard learns of it only from the burst.
  await finishAsThePerson(personRequests);
  const burst = await webhookBurst({ apiIds: createdIds, registered: personRequests.map((p) => p.id) });
  // The service's truth for the requests the burst changed, read with the load's own key.
  for (const request of personRequests) {
    request.truth = (await (await fetch(`${BASE}/v1/verifications/${request.id}`, { headers: auth })).json()).status;
  }

  const rssAfter = serverRss();
  const rows = [summary('sandbox creates', creates), summary('sandbox reads', reads), summary('dashboard read route', dashboardReads)];
  console.log(`\nLoad: ${CONNECTIONS} connections × ${DURATION_S} s each, loopback, ${os.cpus().length} cores\n`);
  console.table(rows);
  console.log(`created ids: ${createdIds.length}, lost writes: ${lost}`);
  console.log(
    `\nWebhook burst: ${BURST.unique + BURST.duplicates} genuine deliveries (${BURST.duplicates} duplicates) + ${BURST.forgeries} forged, ${BURST.inFlight} in flight, ${BURST.verifications + PERSONS} verifications\n`,
  );
  console.table([burst.row]);
  console.log(`server RSS: ${rssIdle} MB idle → ${rssAfterReads} MB after the read phases → ${rssAfter} MB after the burst`);

  // Stopped before the data directory can be read: PGlite admits one process at a time.
  await server.stop();
  const stored = runCli(
    'e2e/load/burst-report.ts',
    [
      JSON.stringify({
        prefix: BURST_PREFIX,
        from: burst.from,
        to: burst.to,
        targets: [...burst.eventsPerId.keys()],
        registered: personRequests.map((p) => p.id),
      }),
    ],
    { dataDir },
  );
  const problems = checkBurst(burst, stored, personRequests);
  console.table([
    {
      'receipts (unique ids)': stored.receipts.length,
      're-reads (service log)': Object.values(stored.readsById).reduce((a, b) => a + b, 0),
      'status changes audited': stored.statusChanges.length,
      'register rows': stored.register.length,
      'double applications': problems.filter((p) => p.startsWith('double')).length,
    },
  ]);

  const fiveXx = rows.reduce((n, r) => n + r['5xx'], 0) + burst.row['5xx'];
  if (fiveXx > 0 || lost > 0 || createdIds.length === 0 || problems.length > 0) {
    console.error(
      `FAIL: ${fiveXx} responses were 5xx, ${lost} writes lost${problems.length ? `\n  ${problems.slice(0, 20).join('\n  ')}` : ''}`,
    );
    exitCode = 1;
  } else {
    console.log('PASS: no 5xx, no lost write, every webhook verified and each applied exactly once');
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);

/** The person opens each shared link (no staff session) and completes or fails the verification. */
async function finishAsThePerson(requests) {
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  const person = await browser.newPage();
  for (const { link, outcome } of requests) {
    await person.goto(link);
    if (outcome === 'completed') {
      await person.getByLabel('Name read from the identity document').fill('BURST PERSON');
      await person.getByRole('button', { name: 'Complete with a passport' }).click();
    } else {
      await person.getByRole('radio', { name: 'Document expired' }).check();
      await person.getByRole('button', { name: 'Fail the verification' }).click();
    }
    // The page answers with the outcome once it is stored; the buttons are gone then.
    await person.getByRole('button', { name: 'Complete with a passport' }).waitFor({ state: 'detached' });
  }
  await browser.close();
}

/**
 * 500 genuine deliveries (400 unique webhook-ids, 100 duplicates: half sent right behind their
 * original, so both are in flight together, half re-signed later as a retrying sender does) and
 * a few forgeries, shuffled, sent `inFlight` at a time. Events are thin, like the service's: the
 * receiver re-reads each record, so the event types only need to be plausible.
 */
async function webhookBurst({ apiIds, registered }) {
  const webhook = new Webhook(webhookSecret);
  const signed = (id, body, at = new Date()) => ({
    id,
    body,
    headers: {
      'Content-Type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': webhook.sign(id, at, body),
    },
  });
  const shuffle = (items) => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  };

  // Every finished request gets a "created" and its terminal event (out of order after the
  // shuffle); the rest of the unique deliveries go to records created through the API.
  const outcomes = new Map(registered.map((id, i) => [id, i % 2 === 0 ? 'completed' : 'failed']));
  const ids = [...registered, ...shuffle([...new Set(apiIds)]).slice(0, BURST.verifications)];
  const events = [];
  for (const id of registered) events.push([id, 'verification.created'], [id, `verification.${outcomes.get(id)}`]);
  for (let i = 0; events.length < BURST.unique; i++)
    events.push([ids[registered.length + (i % BURST.verifications)], 'verification.created']);
  const originals = shuffle(
    events.map(([verificationId, type], n) =>
      signed(`${BURST_PREFIX}${n}`, JSON.stringify({ type, timestamp: new Date().toISOString(), data: { verificationId } })),
    ),
  );
  const eventsPerId = new Map();
  for (const [id] of events) eventsPerId.set(id, (eventsPerId.get(id) ?? 0) + 1);

  const plan = originals.map((d) => ({ ...d, kind: 'original' }));
  const copied = shuffle([...originals]).slice(0, BURST.duplicates);
  for (const d of copied.slice(0, BURST.concurrentCopies)) plan.splice(plan.findIndex((p) => p.id === d.id) + 1, 0, { ...d, kind: 'copy' });
  // Later copies are signed when sent (a retry carries a fresh timestamp and signature).
  for (const d of copied.slice(BURST.concurrentCopies)) plan.push({ id: d.id, body: d.body, kind: 'late copy' });
  // Forgeries: a genuine id with one byte added to its body (it must not use up the real
  // delivery's receipt), or a new id signed with a secret that is not ours.
  const stranger = new Webhook(newWebhookSecret());
  for (let i = 0; i < BURST.forgeries; i++) {
    const original = originals[i];
    let forged;
    if (i % 2 === 0) forged = { ...original, body: original.body.replace('"type":"', '"type": "') };
    else {
      const id = `${BURST_PREFIX}forged_${i}`;
      const at = new Date();
      const headers = { ...original.headers, 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)) };
      forged = { id, body: original.body, headers: { ...headers, 'webhook-signature': stranger.sign(id, at, original.body) } };
    }
    plan.splice(Math.floor(Math.random() * plan.length), 0, { ...forged, kind: 'forgery' });
  }

  const answers = [];
  let next = 0;
  const from = new Date();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: BURST.inFlight }, async () => {
      while (next < plan.length) {
        const d = plan[next++];
        const headers = d.kind === 'late copy' ? signed(d.id, d.body).headers : d.headers;
        const t = performance.now();
        let status = 0;
        let result;
        try {
          const response = await fetch(`${BASE}/api/webhooks/verification-service`, { method: 'POST', headers, body: d.body });
          status = response.status;
          result = (await response.json().catch(() => ({}))).status;
        } catch {}
        answers.push({ id: d.id, kind: d.kind, status, result, ms: performance.now() - t });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const to = new Date();
  const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  const count = (f) => answers.filter(f).length;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    answers,
    eventsPerId,
    outcomes,
    row: {
      name: 'webhook burst',
      deliveries: answers.length,
      '2xx': count((a) => a.status >= 200 && a.status < 300),
      '4xx': count((a) => a.status >= 400 && a.status < 500),
      '5xx': count((a) => a.status >= 500),
      'no answer': count((a) => a.status === 0),
      processed: count((a) => a.result === 'processed'),
      duplicate: count((a) => a.result === 'duplicate'),
      s: Number(seconds.toFixed(1)),
      'deliveries/s': Math.round(answers.length / seconds),
      'p50 ms': at(0.5),
      'p99 ms': at(0.99),
    },
  };
}

/** Every way the burst could have gone wrong, as readable lines; empty when it held. */
function checkBurst(burst, stored, personRequests) {
  const problems = [];
  const genuine = burst.answers.filter((a) => a.kind !== 'forgery');
  for (const a of genuine) if (a.status !== 200) problems.push(`a genuine delivery (${a.kind}) answered ${a.status}`);
  for (const a of burst.answers.filter((x) => x.kind === 'forgery'))
    if (a.status < 400 || a.status >= 500) problems.push(`a forgery answered ${a.status}`);
  const processed = new Map();
  for (const a of genuine) if (a.result === 'processed') processed.set(a.id, (processed.get(a.id) ?? 0) + 1);
  for (const [id, n] of processed) if (n > 1) problems.push(`double application: ${id} answered "processed" ${n} times`);
  if (processed.size !== BURST.unique) problems.push(`${processed.size} of ${BURST.unique} webhook-ids answered "processed"`);
  const expectedIds = new Set(genuine.map((a) => a.id));
  const receiptIds = new Set(stored.receipts.map((r) => r.webhookId));
  if (receiptIds.size !== expectedIds.size || [...expectedIds].some((id) => !receiptIds.has(id))) {
    problems.push(`receipts: ${receiptIds.size} stored for ${expectedIds.size} unique webhook-ids (forgeries must leave none)`);
  }
  for (const [id, n] of burst.eventsPerId) {
    const reads = stored.readsById[id] ?? 0;
    if (reads > n) problems.push(`double application: ${id} was re-read ${reads} times for ${n} webhook-ids`);
    else if (reads < n) problems.push(`${id} was re-read ${reads} times for ${n} webhook-ids`);
  }
  const register = new Map(stored.register.map((r) => [r.verificationId, r.status]));
  for (const { id, outcome, truth } of personRequests) {
    if (truth !== outcome) problems.push(`the service says ${truth} for ${id}, the person chose ${outcome}`);
    const changes = stored.statusChanges.filter((c) => c.targetId === id);
    if (changes.length > 1) problems.push(`double application: ${changes.length} status changes audited for ${id}`);
    if (changes.length === 0) problems.push(`no status change audited for ${id}`);
    if (register.get(id) !== truth) problems.push(`register says ${register.get(id)} for ${id}, the service ${truth}`);
  }
  // Webhooks never add to the register: the first request and the person's ones, nothing else.
  if (stored.register.length !== personRequests.length + 1)
    problems.push(`register has ${stored.register.length} rows, expected ${personRequests.length + 1}`);
  return problems;
}
