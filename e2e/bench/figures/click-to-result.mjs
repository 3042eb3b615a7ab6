// Click to result: an operator submits a valid create form; timed inside the page from the
// submit button's click event to the first animation frame after the result panel
// ([data-testid=creation-result]) is in the DOM and visible. Timing in the page keeps
// Playwright's own round trips out of the figure. A fresh form (page load) per submission.
import { fillCreateForm } from '../lib/browser.mjs';
import { summarize } from '../lib/stats.mjs';
import { more, warmingAllowed } from '../lib/time-box.mjs';

function installProbe() {
  const probe = { clickAt: null, visibleAt: null, frameAt: null };
  window.__benchProbe = probe;
  document.addEventListener(
    'click',
    (event) => {
      if (event.target instanceof Element && event.target.closest('button[type="submit"]')) probe.clickAt ??= performance.now();
    },
    true,
  );
  const check = () => {
    if (probe.visibleAt !== null) return;
    const panel = document.querySelector('[data-testid="creation-result"]');
    if (panel && panel.checkVisibility()) {
      probe.visibleAt = performance.now();
      requestAnimationFrame(() => (probe.frameAt = performance.now()));
    }
  };
  new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
}

export async function measureClickToResult({ browser, base, cookies, count = 20, warmup = 2, box, deadline }) {
  const context = await browser.newContext({ baseURL: base });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const times = [];
  try {
    for (let i = 0; i < warmup + count && (i < warmup ? warmingAllowed(box) : more(box, i - warmup)); i++) {
      deadline.check();
      await page.goto('/verifications/new');
      await fillCreateForm(page);
      await page.evaluate(installProbe);
      await page.getByRole('button', { name: 'Create verification request' }).click();
      await page.getByTestId('creation-result').waitFor({ state: 'visible', timeout: 10_000 });
      await page.waitForFunction(() => window.__benchProbe.frameAt !== null, null, { timeout: 5_000 });
      const probe = await page.evaluate(() => window.__benchProbe);
      if (probe.clickAt === null) throw new Error('click to result: the click was not seen by the probe');
      if (i >= warmup) times.push(probe.frameAt - probe.clickAt);
    }
  } finally {
    await context.close();
  }
  if (times.length === 0) throw new Error('no sample within the time box');
  return { ...summarize(times), planned: count };
}
