// Lighthouse 12 (Node API, desktop preset) on the four main pages, one after the other, in a
// Chromium the bench launches itself on a port of its own (chrome-launcher, Debian's Chromium).
// Signed-in pages get the session cookie as an extra request header: Lighthouse clears the
// origin's storage (cookies included) before each audit, a header survives that.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { findChromium } from '../lib/browser.mjs';
import { more } from '../lib/time-box.mjs';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
export const LIGHTHOUSE_PAGES = ['sign-in', 'home', 'create', 'detail'];

export async function measureLighthouse({ base, cookieHeader, detailId, port, register, box, deadline }) {
  const pages = [
    { name: 'sign-in', path: '/sign-in', signedIn: false },
    { name: 'home', path: '/', signedIn: true },
    { name: 'create', path: '/verifications/new', signedIn: true },
    { name: 'detail', path: `/verifications/${detailId}`, signedIn: true },
  ];
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? findChromium(),
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
    port,
    // The bench has its own SIGINT handling and cleans up this Chrome itself.
    handleSIGINT: false,
    logLevel: 'silent',
  });
  const unregister = register(() => chrome.kill());
  try {
    const results = [];
    let slowest = 0;
    for (const page of pages) {
      deadline.check();
      // A page is not started unless one as slow as the slowest so far would still end in the box.
      if (!more({ ...box, soft: box.soft - slowest, hard: box.hard - slowest }, results.length)) break;
      const pageStarted = performance.now();
      const url = `${base}${page.path}`;
      const runner = await lighthouse(
        url,
        {
          port: chrome.port,
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
      // The audits that cost points, so a FAIL says where to look.
      const lost = CATEGORIES.flatMap((id) =>
        (lhr.categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${id}:${ref.id}`),
      );
      slowest = Math.max(slowest, performance.now() - pageStarted);
      results.push({ page: page.name, path: page.path.replace(detailId, '[id]'), scores, lost });
    }
    return results;
  } finally {
    unregister();
    await chrome.kill();
  }
}
