#!/usr/bin/env node
// One autocannon run in a process of its own, for figures/throughput.mjs. The bench's own process
// has by then held browsers and Lighthouse; its heap and its garbage collection would run on the
// same 2 cores as the load generator and slow it, so a fresh Node process generates the load.
// Input: a JSON job on stdin; output: autocannon's result as one JSON line on stdout.
//
// A job is autocannon's options plus, optionally, `vary`: how each request differs from the last.
// A JSON job cannot carry functions, so the kinds are built here, each into autocannon's
// `setupRequest`, which autocannon calls for every request it sends (lib/requestIterator.js
// rebuilds a request that has one), so each request gets its own path, body or headers:
// - { kind: 'paths', paths }: GETs rotating over `paths`;
// - { kind: 'webhook', secret, ids }: a Standard Webhooks delivery signed with `secret`, a new
//   webhook-id and the current timestamp each time, for the ids in turn;
// - { kind: 'action', body, submissionKey }: the captured server action (`body` in base64) with a
//   fresh submission key each time (a UUID for a UUID, so the multipart body keeps its length).
// `expect` (a string): a response whose body does not contain it counts in autocannon's
// `mismatches` (an error status included), so what was done is `requests.total − mismatches`.
// `collect` (a regular expression's source): its first group is gathered from every response, up to
// 2,000 values (the ids of the records the create actions made), and returned as `collected`.
import { randomUUID } from 'node:crypto';
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';
import { Webhook } from 'standardwebhooks';

const job = JSON.parse(await text(process.stdin));
const { vary, expect, collect, ...options } = job;
const MAX_COLLECTED = 2_000;

function setupRequestFor(v) {
  let next = 0;
  if (v.kind === 'paths') return (request) => ({ ...request, path: v.paths[next++ % v.paths.length] });
  if (v.kind === 'webhook') {
    const signer = new Webhook(v.secret);
    return (request) => {
      const verificationId = v.ids[next++ % v.ids.length];
      const now = new Date();
      const body = JSON.stringify({
        type: 'verification.created',
        timestamp: now.toISOString(),
        data: { verificationId, status: 'pending' },
      });
      const webhookId = `msg_bench_${randomUUID().replaceAll('-', '')}`;
      const headers = {
        ...request.headers,
        'webhook-id': webhookId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signer.sign(webhookId, now, body),
      };
      return { ...request, headers, body };
    };
  }
  if (v.kind === 'action') {
    const template = Buffer.from(v.body, 'base64').toString('latin1');
    return (request) => ({ ...request, body: Buffer.from(template.replaceAll(v.submissionKey, randomUUID()), 'latin1') });
  }
  throw new Error(`unknown kind of request: ${v.kind}`);
}

const collected = [];
const pattern = collect ? new RegExp(collect, 's') : undefined;
const request = {
  ...(vary ? { setupRequest: setupRequestFor(vary) } : {}),
  ...(pattern
    ? {
        onResponse: (_status, body) => {
          const found = collected.length < MAX_COLLECTED && pattern.exec(body)?.[1];
          if (found) collected.push(found);
        },
      }
    : {}),
};
const result = await new Promise((resolve, reject) => {
  autocannon(
    {
      ...options,
      ...(vary || pattern ? { requests: [request] } : {}),
      ...(expect ? { verifyBody: (body) => body.includes(expect) } : {}),
    },
    (error, done) => (error ? reject(error) : resolve(done)),
  );
});
process.stdout.write(`${JSON.stringify({ ...result, collected })}\n`);
