// Click to detail page: on the register (the home page), an operator clicks a request's name;
// timed inside the page from the link's click event to the first animation frame after the
// detail page's status ([data-testid=status]) is in the DOM and visible. It guards the navigation
// staff make most, which a route skeleton would hold back for 300 ms or more (React reveals a
// page no sooner than 300 ms after a fallback appeared).
import { sampleClicks, timeClick } from '../lib/click-probe.mjs';

// A person reads the list before clicking, and Next.js prefetches the links in view meanwhile;
// a click at once would race that prefetch and time something nobody does.
const THINK_MS = 700;

export function measureClickToDetail({ browser, base, cookies, count = 20, warmup = 2, box, deadline }) {
  return sampleClicks({ browser, base, cookies, count, warmup, box, deadline }, async (page) => {
    await page.goto('/');
    const link = page.locator('table a[href^="/verifications/"]').first();
    await link.waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForTimeout(THINK_MS);
    return timeClick(page, { clicked: 'a[href^="/verifications/"]', shown: '[data-testid="status"]', path: '/verifications/' }, () =>
      link.click(),
    );
  });
}
