// Sandbox throughput: autocannon, 32 connections for 10 s each, reads then creates, Bearer key.
// Reads rotate among records created earlier in the run; creates send a valid body. autocannon
// runs in a Node process of its own (lib/load-runner.mjs), on the same 2 cores as the server: the
// figure is what one box serves while also generating its own load.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PERSON } from '../lib/browser.mjs';
import { runJob } from '../lib/run-job.mjs';

const RUNNER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../lib/load-runner.mjs');

async function run(options) {
  const job = { connections: 32, duration: 10, timeout: 10, ...options };
  // Killed if it overruns its duration by far: the bench's deadline must hold.
  const lines = await runJob(RUNNER, job, { what: 'autocannon', timeoutMs: (job.duration + 20) * 1000 });
  return lines.at(-1);
}

const summary = (result) => ({
  perSecond: Math.round(result.requests.total / (result.duration || 10)),
  total: result.requests.total,
  p50: result.latency.p50,
  p99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
});

/**
 * The same load for a short while first, not counted: a route's first seconds under load are
 * spent compiling its hot code and growing the heap, and a throughput figure is about the
 * steady state.
 */
const WARM_UP_S = 2;

export async function measureThroughput({ base, apiKey, ids, deadline }) {
  deadline.check(37_000);
  // The ceiling on this machine: the same load on a route handler that returns a constant
  // (GET /api/health, served like every API route: Next.js's routing, no proxy). No API can be served faster than this; it shows
  // how much of each figure is the framework's and the machine's, and how much the sandbox's.
  const measured = async (job, duration = 10) => {
    await run({ ...job, duration: WARM_UP_S });
    return run({ ...job, duration });
  };
  const ceiling = await measured({ url: `${base}/api/health` }, 5);
  const authorization = `Bearer ${apiKey}`;
  const paths = ids.map((id) => `/v1/verifications/${id}`);
  const reads = await measured({ url: `${base}${paths[0]}`, headers: { authorization }, paths });
  deadline.check(14_000);
  const creates = await measured({
    url: `${base}/v1/verifications/new`,
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: PERSON.name,
      email: PERSON.email,
      chosenPurpose: PERSON.purpose,
      language: 'en',
      shareableLink: false,
      emailNotification: true,
      smsNotification: false,
    }),
  });
  return { ceiling: summary(ceiling), reads: summary(reads), creates: summary(creates) };
}
