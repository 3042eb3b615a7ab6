#!/usr/bin/env node
// One autocannon run in a process of its own, for figures/throughput.mjs. The bench's own process
// has by then held browsers and Lighthouse; its heap and its garbage collection would run on the
// same 2 cores as the load generator and slow it, so a fresh Node process generates the load.
// Input: a JSON job on stdin; output: autocannon's result as one JSON line on stdout.
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';

const job = JSON.parse(await text(process.stdin));
const { paths, ...options } = job;
let next = 0;
const result = await new Promise((resolve, reject) => {
  autocannon(
    {
      ...options,
      // A different path per request (reads rotate over existing records).
      ...(paths ? { requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }] } : {}),
    },
    (error, done) => (error ? reject(error) : resolve(done)),
  );
});
process.stdout.write(`${JSON.stringify(result)}\n`);
