// Click to detail page: on the register (the home page), an operator clicks a request's name;
// timed inside the page from the link's click event to the first animation frame after the
// detail page's status ([data-testid=status]) is in the DOM and visible. Not one of the issue's
// figures: it guards the navigation staff make most, which a route skeleton once held back for
// 300 ms or more (React reveals a page no sooner than 300 ms after a fallback appeared).
import { summarize } from '../lib/stats.mjs';
import { more, warmingAllowed } from '../lib/time-box.mjs';

const THINK_MS = 700;

function installProbe() {
  const probe = { clickAt: null, visibleAt: null, frameAt: null };
  window.__benchProbe = probe;
  document.addEventListener(
    'click',
    (event) => {
      if (event.target instanceof Element && event.target.closest('a[href^="/verifications/"]')) probe.clickAt ??= performance.now();
    },
    true,
  );
  const check = () => {
    if (probe.visibleAt !== null || !location.pathname.startsWith('/verifications/')) return;
    const status = document.querySelector('[data-testid="status"]');
    if (status && status.checkVisibility()) {
      probe.visibleAt = performance.now();
      requestAnimationFrame(() => (probe.frameAt = performance.now()));
    }
  };
  new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
}

export async function measureClickToDetail({ browser, base, cookies, count = 20, warmup = 2, box, deadline }) {
  const context = await browser.newContext({ baseURL: base });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const times = [];
  try {
    for (let i = 0; i < warmup + count && (i < warmup ? warmingAllowed(box) : more(box, i - warmup)); i++) {
      deadline.check();
      await page.goto('/');
      const link = page.locator('table a[href^="/verifications/"]').first();
      await link.waitFor({ state: 'visible', timeout: 10_000 });
      // A person reads the list before clicking, and Next.js prefetches the links in view
      // meanwhile; a click at once would race that prefetch and time something nobody does.
      await page.waitForTimeout(THINK_MS);
      await page.evaluate(installProbe);
      await link.click();
      await page.waitForFunction(() => window.__benchProbe.frameAt !== null, null, { timeout: 10_000 });
      const probe = await page.evaluate(() => window.__benchProbe);
      if (probe.clickAt === null) throw new Error('click to detail: the click was not seen by the probe');
      if (i >= warmup) times.push(probe.frameAt - probe.clickAt);
    }
  } finally {
    await context.close();
  }
  if (times.length === 0) throw new Error('no sample within the time box');
  return { ...summarize(times), planned: count };
}
