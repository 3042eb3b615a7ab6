#!/usr/bin/env node
// Lighthouse audits in a process of their own, for figures/lighthouse.mjs. Run inside the bench's
// own process, Lighthouse would leave it holding much memory and busy during the throughput
// figure that follows, which shares the server's cores, and so lower every request rate of that
// figure. Here whatever it leaves behind ends with the process.
// Input: a JSON job on stdin (it holds the session cookie, which `ps` would show on a command
// line). Output: one JSON line per audited page, in order; exit 1 with the error on stderr.
import { text } from 'node:stream/consumers';
import lighthouse, { desktopConfig } from 'lighthouse';
import { more } from './time-box.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

const job = JSON.parse(await text(process.stdin));
const { base, chromePort, cookieHeader, pages, detailId } = job;
// The parent's time box, carried over as durations from now (each process has its own clock).
const now = performance.now();
const box = { soft: now + job.box.softInMs, hard: now + job.box.hardInMs, min: job.box.min };

let done = 0;
let slowest = 0;
for (const page of pages) {
  // A page is only started if even the slowest audit so far would end within the box.
  if (!more({ ...box, soft: box.soft - slowest, hard: box.hard - slowest }, done)) break;
  const pageStarted = performance.now();
  const runner = await lighthouse(
    `${base}${page.path}`,
    {
      port: chromePort,
      logLevel: 'error',
      output: 'json',
      onlyCategories: CATEGORIES,
      extraHeaders: page.signedIn ? { Cookie: cookieHeader } : undefined,
    },
    desktopConfig,
  );
  const lhr = runner?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned no result for ${page.path}`);
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${page.path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  // A redirect to sign-in would audit the wrong page: refuse rather than report it.
  if (new URL(lhr.finalDisplayedUrl).pathname !== page.path) throw new Error(`Lighthouse: ${page.path} ended at ${lhr.finalDisplayedUrl}`);
  const scores = Object.fromEntries(CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]));
  // What cost points, so a score under 100 says why without opening a report.
  const lost = CATEGORIES.flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${id}:${ref.id}`),
  );
  slowest = Math.max(slowest, performance.now() - pageStarted);
  done += 1;
  process.stdout.write(`${JSON.stringify({ page: page.name, path: page.path.replace(detailId, '[id]'), scores, lost })}\n`);
}
