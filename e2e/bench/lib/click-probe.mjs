// Times, inside the page, a click to the first animation frame after an element is in the DOM
// and visible. Timing in the page keeps Playwright's own round trips out of the figure.
import { summarize } from './stats.mjs';
import { more, warmingAllowed } from './time-box.mjs';

// Runs in the page (serialized by page.evaluate): it may use nothing from this module.
function installProbe({ clicked, shown, path }) {
  const probe = { clickAt: null, visibleAt: null, frameAt: null };
  window.__benchProbe = probe;
  document.addEventListener(
    'click',
    (event) => {
      if (event.target instanceof Element && event.target.closest(clicked)) probe.clickAt ??= performance.now();
    },
    true,
  );
  const check = () => {
    if (probe.visibleAt !== null || (path && !location.pathname.startsWith(path))) return;
    const element = document.querySelector(shown);
    if (element?.checkVisibility()) {
      probe.visibleAt = performance.now();
      requestAnimationFrame(() => (probe.frameAt = performance.now()));
    }
  };
  new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
}

/**
 * Milliseconds from a click on an element matching `clicked` (which `click()` must make) to the
 * frame after `shown` is visible, on a page whose path starts with `path` when one is given.
 */
export async function timeClick(page, { clicked, shown, path }, click) {
  await page.evaluate(installProbe, { clicked, shown, path: path ?? null });
  await click();
  await page.waitForFunction(() => window.__benchProbe.frameAt !== null, null, { timeout: 10_000 });
  const probe = await page.evaluate(() => window.__benchProbe);
  if (probe.clickAt === null) throw new Error(`the probe saw no click on ${clicked}`);
  return probe.frameAt - probe.clickAt;
}

/**
 * Takes `warmup` untimed and then up to `count` timed samples within the phase's time box, in
 * one signed-in browser context; `sample(page)` prepares the page and returns one timing.
 */
export async function sampleClicks({ browser, base, cookies, count, warmup, box, deadline }, sample) {
  const context = await browser.newContext({ baseURL: base });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const times = [];
  try {
    for (let i = 0; i < warmup + count && (i < warmup ? warmingAllowed(box) : more(box, i - warmup)); i++) {
      deadline.check();
      const ms = await sample(page);
      if (i >= warmup) times.push(ms);
    }
  } finally {
    await context.close();
  }
  if (times.length === 0) throw new Error('no sample within the time box');
  return { ...summarize(times), planned: count };
}
