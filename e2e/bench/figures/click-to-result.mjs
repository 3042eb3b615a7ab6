// Click to result: an operator submits a valid create form; timed inside the page from the
// submit button's click event to the first animation frame after the result panel
// ([data-testid=creation-result]) is in the DOM and visible. A fresh form (page load) per submission.
import { fillCreateForm } from '../lib/browser.mjs';
import { sampleClicks, timeClick } from '../lib/click-probe.mjs';

export function measureClickToResult({ browser, base, cookies, count = 20, warmup = 2, box, deadline }) {
  return sampleClicks({ browser, base, cookies, count, warmup, box, deadline }, async (page) => {
    await page.goto('/verifications/new');
    await fillCreateForm(page);
    return timeClick(page, { clicked: 'button[type="submit"]', shown: '[data-testid="creation-result"]' }, () =>
      page.getByRole('button', { name: 'Create verification request' }).click(),
    );
  });
}
