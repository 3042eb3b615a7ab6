// Sandbox throughput: autocannon, 32 connections for 10 s each, reads then creates, Bearer key.
// Reads rotate among records created earlier in the run; creates send a valid body. autocannon
// runs in the bench's process, on the same 2 cores as the server: the figure is what one box
// serves while also generating its own load.
import autocannon from 'autocannon';
import { PERSON } from '../lib/browser.mjs';

function run(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 32, duration: 10, timeout: 10, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
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

export async function measureThroughput({ base, apiKey, ids, deadline }) {
  deadline.check(31_000);
  // The ceiling on this machine: the same load on a route handler that returns a constant
  // (GET /api/health, through the same proxy). No API can be served faster than this; it shows
  // how much of each figure is the framework's and the machine's, and how much the sandbox's.
  const ceiling = await run({ url: `${base}/api/health`, duration: 5 });
  const authorization = `Bearer ${apiKey}`;
  let next = 0;
  const path = () => `/v1/verifications/${ids[next++ % ids.length]}`;
  const reads = await run({
    url: `${base}${path()}`,
    headers: { authorization },
    requests: [{ setupRequest: (request) => ({ ...request, path: path() }) }],
  });
  deadline.check(12_000);
  const creates = await run({
    url: `${base}/v1/verifications/new`,
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ name: PERSON.name, email: PERSON.email, chosenPurpose: PERSON.purpose, language: 'en', shareableLink: false, emailNotification: true, smsNotification: false }),
  });
  return { ceiling: summary(ceiling), reads: summary(reads), creates: summary(creates) };
}
