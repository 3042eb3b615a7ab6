// The accessibility check every spec runs on the pages it visits: axe-core against WCAG 2.1 A and
// AA, failing on serious and critical violations only, with each one named (rule, state, where).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Fails with the list of serious or critical violations on the page as it is now. */
export async function expectNoSeriousViolations(page: Page, state = page.url()) {
  // Colours are judged at rest: a button fading back from its pending colour (transition-colors)
  // would otherwise be measured half-way. Endless animations (spinners) are not waited for.
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => {
      const iterations = animation.effect?.getComputedTiming().iterations;
      return animation.playState !== 'running' || iterations === Infinity;
    }),
  );
  const results = await new AxeBuilder({ page })
    // Only violations are read: the other kinds are gathered for one element each, not all.
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // axe runs in the page itself. The default opens a blank page for every analysis, to merge
    // the results of cross-origin frames; none of our pages has one.
    .setLegacyMode()
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${state}: ${violation.id} (${violation.impact}) — ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  expect(serious).toEqual([]);
}
