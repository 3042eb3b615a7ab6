#!/usr/bin/env node
// Lighthouse audits in a process of their own, for figures/lighthouse.mjs. Run inside the bench's
// own process, Lighthouse would leave it holding much memory and busy during the throughput
// figure that follows, which shares the server's cores, and so lower every request rate of that
// figure. Here whatever it leaves behind ends with the process.
// Input: a JSON job on stdin (it holds the session cookie, which `ps` would show on a command
// line). Output: one JSON line per audited page, in order; exit 1 with the error on stderr.
//
// Signed-in pages: the session is a real cookie in the audited browser, set through puppeteer on
// the page Lighthouse audits, with Lighthouse's storage reset turned off so that it stays. (A
// "Cookie" extra header, the older way, is dropped by current Chromium: every signed-in page
// then ended on /sign-in.) The signed-out page is audited first, before the cookie exists. What
// the reset would have done besides, the runner does itself before each page: it empties the HTTP
// cache and the origin's other storage, so every page is still audited as a first, cold load.
import { text } from 'node:stream/consumers';
import lighthouse, { desktopConfig } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { more } from './time-box.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

const job = JSON.parse(await text(process.stdin));
const { base, chromePort, cookieHeader, pages, detailId } = job;
// The parent's time box, carried over as durations from now (each process has its own clock).
const now = performance.now();
const box = { soft: now + job.box.softInMs, hard: now + job.box.hardInMs, min: job.box.min };

/** The session cookie(s) as puppeteer takes them, scoped to the audited origin. */
function sessionCookies() {
  return cookieHeader
    .split(';')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: base, httpOnly: true, sameSite: 'Lax' };
    });
}

const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chromePort}`, defaultViewport: null });
const tab = await browser.newPage();
const coldStart = await tab.createCDPSession();
/** What Lighthouse's own reset clears (its storage types), less the cookies. */
const STORAGE_BUT_COOKIES = 'file_systems,indexeddb,local_storage,shader_cache,websql,service_workers,cache_storage';
let signedIn = false;
let done = 0;
let slowest = 0;
for (const page of pages) {
  // A page is only started if even the slowest audit so far would end within the box.
  if (!more({ ...box, soft: box.soft - slowest, hard: box.hard - slowest }, done)) break;
  const pageStarted = performance.now();
  await coldStart.send('Network.clearBrowserCache');
  await coldStart.send('Storage.clearDataForOrigin', { origin: new URL(base).origin, storageTypes: STORAGE_BUT_COOKIES });
  if (page.signedIn && !signedIn) {
    await browser.defaultBrowserContext().setCookie(...sessionCookies());
    signedIn = true;
  }
  const runner = await lighthouse(
    `${base}${page.path}`,
    {
      port: chromePort,
      logLevel: 'error',
      output: 'json',
      onlyCategories: CATEGORIES,
      disableStorageReset: true,
    },
    // Lighthouse's default configuration is its mobile preset (a phone's screen, throttled).
    page.preset === 'desktop' ? desktopConfig : undefined,
    tab,
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
      .map((ref) => `${id}:${ref.id}${reading(lhr.audits[ref.id])}`),
  );
  slowest = Math.max(slowest, performance.now() - pageStarted);
  done += 1;
  process.stdout.write(
    `${JSON.stringify({ page: page.name, preset: page.preset, path: page.path.replace(detailId, '[id]'), scores, lost })}\n`,
  );
}
/** An audit's own reading (a time, a count, the kinds of issue), so a lost point says by how much or why. */
function reading(audit) {
  const kinds = (audit?.details?.items ?? []).map((item) => item.issueType).filter(Boolean);
  const parts = [audit?.displayValue, ...new Set(kinds)].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

// Lets the process end: the connection to Chromium would otherwise keep it alive.
await browser.disconnect();
