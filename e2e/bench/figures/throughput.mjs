// Throughput of our routes, each as a ratio to a constant route handler measured in the same run:
// the create form's server action, the dashboard's read route and the webhook receiver, under
// autocannon's 32 connections. Then the embedded sandbox's own reads and creates (Bearer key),
// reported beside them, not budgeted: they are the service's figures, not the dashboard's.
// autocannon runs in a Node process of its own (lib/load-runner.mjs), on the same 2 cores as the
// server: each figure is what one box serves while also generating its own load.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIRECT_CREATE_BODY } from '../lib/browser.mjs';
import { runJob } from '../lib/run-job.mjs';
import { THROUGHPUT_MS } from '../lib/time-box.mjs';

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../lib/load-runner.mjs');

/**
 * The same load for a short while first, not counted: a route's first seconds under load are
 * spent compiling its hot code and growing the heap, and a throughput figure is about the
 * steady state.
 */
const WARM_UP_S = 2;
/** Our routes' runs, and the constant route's and the sandbox's (shorter: a ceiling and reported rows). */
const OURS_S = 10;
const OTHERS_S = 5;

// Headers of the captured action request that belong to the browser's connection (as in figures/overhead.mjs).
const DROPPED = new Set(['cookie', 'host', 'content-length', 'connection', 'origin', 'referer', 'accept-encoding']);

async function run(options) {
  const job = { connections: 32, timeout: 10, ...options };
  // Killed if it overruns its duration by far: the bench's deadline must hold.
  const lines = await runJob(RUNNER, job, { what: 'autocannon', timeoutMs: (job.duration + 20) * 1000 });
  return lines.at(-1);
}

const measured = async (job, duration) => {
  await run({ ...job, duration: WARM_UP_S });
  return run({ ...job, duration });
};

/**
 * `done`: the requests that did what they were sent for. Without an expected answer that is every
 * answer; with one, those whose body held it (a 2xx with a created record, a processed delivery):
 * autocannon counts the others as mismatches, error statuses included.
 */
const summary = (result, { expect = false } = {}) => {
  const done = result.requests.total - (expect ? result.mismatches : 0);
  return {
    perSecond: Math.round(done / (result.duration || 10)),
    total: result.requests.total,
    done,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    ...(expect ? { notDone: result.mismatches } : {}),
  };
};

export async function measureThroughput({ base, apiKey, cookieHeader, action, webhookSecret, ids, deadline }) {
  deadline.check(THROUGHPUT_MS);
  // The ceiling on this machine: the same load on a route handler that returns a constant
  // (GET /api/health, served like every API route: Next.js's routing, no proxy). No API route can
  // be served faster than this; each figure is a ratio to it, since absolute rates follow the host.
  const ceiling = await measured({ url: `${base}/api/health` }, OTHERS_S);

  // Creates first: the records they make are the ones the reads and the deliveries then rotate over.
  const actionHeaders = Object.fromEntries(Object.entries(action.headers).filter(([name]) => !DROPPED.has(name.toLowerCase())));
  const createJob = {
    url: new URL(action.path, base).toString(),
    method: 'POST',
    headers: { ...actionHeaders, cookie: cookieHeader, origin: base },
    vary: { kind: 'action', body: action.body.toString('base64'), submissionKey: action.submissionKey },
    // The action answers 200 whatever happened; only a "created" state is a create.
    expect: '"status":"created"',
    collect: '"status":"created".*?"verificationId":"([^"]+)"',
  };
  await run({ ...createJob, duration: WARM_UP_S });
  const createRun = await run({ ...createJob, duration: OURS_S });
  const records = createRun.collected.length > 0 ? createRun.collected : ids;

  const reads = await measured(
    {
      url: `${base}/api/verifications/${records[0]}`,
      headers: { cookie: cookieHeader },
      vary: { kind: 'paths', paths: records.map((id) => `/api/verifications/${id}`) },
    },
    OURS_S,
  );

  // Deliveries, each with its own webhook-id (none is a duplicate), for records that exist. Each
  // one the receiver applies is announced on the live stream in its transaction: a stream open
  // during the measured run counts them, the read-back that they were stored, not only answered.
  const webhookJob = {
    url: `${base}/api/webhooks/verification-service`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    vary: { kind: 'webhook', secret: webhookSecret, ids: records },
    expect: '"status":"processed"',
  };
  await run({ ...webhookJob, duration: WARM_UP_S });
  const stream = await openEventStream(base, cookieHeader);
  let webhookRun;
  try {
    webhookRun = await run({ ...webhookJob, duration: OURS_S });
    await stream.settled();
  } finally {
    stream.close();
  }
  deadline.check(2 * (WARM_UP_S + OTHERS_S) * 1000);

  const authorization = `Bearer ${apiKey}`;
  const sandboxReads = await measured(
    {
      url: `${base}/v1/verifications/${records[0]}`,
      headers: { authorization },
      vary: { kind: 'paths', paths: records.map((id) => `/v1/verifications/${id}`) },
    },
    OTHERS_S,
  );
  const sandboxCreates = await measured(
    {
      url: `${base}/v1/verifications/new`,
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: DIRECT_CREATE_BODY,
    },
    OTHERS_S,
  );
  return {
    records: records.length,
    ceiling: summary(ceiling),
    createActions: summary(createRun, { expect: true }),
    reads: summary(reads),
    webhooks: { ...summary(webhookRun, { expect: true }), announced: stream.count() },
    sandboxReads: summary(sandboxReads),
    sandboxCreates: summary(sandboxCreates),
  };
}

/**
 * A signed-in EventSource('/api/events') of our own: counts the `verification` frames it gets.
 * `settled()` waits until no frame has come for half a second (at most 5 s), so the deliveries
 * still in flight when the load stopped are counted too.
 */
async function openEventStream(base, cookieHeader) {
  let frames = 0;
  let lastFrameAt = performance.now();
  let carry = '';
  const request = http.get(`${base}/api/events`, { headers: { cookie: cookieHeader, accept: 'text/event-stream' } });
  const timeout = (reject) => setTimeout(() => reject(new Error('the event stream did not open within 10 s')), 10_000).unref();
  const response = await new Promise((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
    timeout(reject);
  });
  // Closing it (destroy) must not surface as an unhandled error.
  request.on('error', () => {});
  if (response.statusCode !== 200) {
    request.destroy();
    throw new Error(`the event stream answered ${response.statusCode}`);
  }
  const connected = new Promise((resolve, reject) => {
    timeout(reject);
    response.setEncoding('utf8');
    response.on('data', (chunk) => {
      const text = carry + chunk;
      const parts = text.split('\n\n');
      carry = parts.pop();
      for (const frame of parts) {
        if (frame.includes(': connected')) resolve();
        if (/^event: verification$/m.test(frame)) {
          frames++;
          lastFrameAt = performance.now();
        }
      }
    });
  });
  response.on('error', () => {});
  await connected.catch((error) => {
    request.destroy();
    throw error;
  });
  return {
    count: () => frames,
    settled: async () => {
      const until = performance.now() + 5_000;
      while (performance.now() - lastFrameAt < 500 && performance.now() < until) await new Promise((r) => setTimeout(r, 100));
    },
    close: () => request.destroy(),
  };
}
