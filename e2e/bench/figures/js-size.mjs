// First-load JavaScript per route, as Chromium fetches it: a fresh browser context (empty cache)
// loads the page and CDP lists every response of type Script that finished by the `load` event
// (the HTML's own <script async> chunks, which `load` waits for). Scripts fetched afterwards —
// <Link> prefetches of other routes' chunks on idle, lazy components — are reported apart and not
// counted: they depend on timing and on which links are on screen. Two sizes are kept per route:
//   gzip — the compressed bodies as the server sends them (re-requested with Accept-Encoding:
//          gzip, the bytes counted undecoded): what the budget uses, independent of headers;
//   wire — CDP's encodedDataLength, everything that came over the socket, headers included.
// Inline scripts (the RSC payload in the HTML) are not JS files and are not counted.
//
// Baseline: the not-found page, the emptiest page of this build (root layout + a heading and a
// link; see ttfb.mjs). Every page, the baseline included, is measured with the CSP enforced.
import http from 'node:http';
import { more } from '../lib/time-box.mjs';
import { STATIC_BASELINE_PATH } from './ttfb.mjs';

export const JS_ROUTES = ['/sign-in', '/', '/verifications/new', '/verifications/[id]', '/queue', '/overview'];

function gzipBodyBytes(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip' } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () =>
          resolve({ bytes, encoding: response.headers['content-encoding'] ?? 'identity', status: response.statusCode }),
        );
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

async function scriptsOfFreshLoad(browser, url, { cookies, bypassCSP = false }) {
  const context = await browser.newContext({ bypassCSP });
  if (cookies) await context.addCookies(cookies);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const scripts = new Map();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scripts.set(event.requestId, { url: event.response.url, status: event.response.status, wire: 0 });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const script = scripts.get(event.requestId);
    if (script) {
      script.wire = event.encodedDataLength;
      script.done = true;
    }
  });
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    const atLoad = [...scripts.values()].filter((script) => script.done);
    // What comes later is only reported; the pages hold an EventSource open, so "idle" is
    // bounded rather than awaited forever.
    await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => {});
    const afterLoad = [...scripts.values()].filter((script) => !atLoad.includes(script));
    return { finalUrl: page.url(), scripts: atLoad, afterLoad };
  } finally {
    await context.close();
  }
}

export async function measureFirstLoadJs({ browser, base, cookies, detailId, box, deadline }) {
  const sizes = new Map();
  const sizeOf = async (url) => {
    if (!sizes.has(url)) sizes.set(url, await gzipBodyBytes(url));
    return sizes.get(url);
  };
  const targets = [
    { route: 'baseline (empty page: not-found)', path: STATIC_BASELINE_PATH, cookies },
    ...JS_ROUTES.map((route) => ({
      route,
      path: route.replace('[id]', detailId),
      cookies: route === '/sign-in' ? undefined : cookies,
    })),
  ];
  const results = [];
  for (const target of targets) {
    deadline.check();
    // Out of time: the routes not loaded are reported as not measured.
    if (!more(box, results.length)) break;
    const { finalUrl, scripts, afterLoad } = await scriptsOfFreshLoad(browser, `${base}${target.path}`, target);
    if (new URL(finalUrl).pathname !== target.path) throw new Error(`JS size: ${target.path} ended at ${finalUrl} (not signed in?)`);
    const failed = scripts.filter((s) => s.status !== 200);
    if (failed.length > 0) throw new Error(`JS size: ${target.path} got non-200 scripts: ${failed.map((s) => s.url).join(', ')}`);
    let gzip = 0;
    const encodings = new Set();
    for (const script of scripts) {
      const size = await sizeOf(script.url);
      gzip += size.bytes;
      encodings.add(size.encoding);
    }
    results.push({
      route: target.route,
      files: scripts.length,
      gzipKb: gzip / 1024,
      wireKb: scripts.reduce((sum, s) => sum + s.wire, 0) / 1024,
      encodings: [...encodings],
      afterLoad: { files: afterLoad.length, wireKb: afterLoad.reduce((sum, s) => sum + s.wire, 0) / 1024 },
    });
  }
  return results;
}
