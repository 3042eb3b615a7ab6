// The overview is drawn on the server: without JavaScript a browser gets the same figures, charts
// and tables as with it, for the same period and filters.
import { expect, type Page, test } from '@playwright/test';
import { uniqueName } from './support/fixtures';
import { createOverHttp } from './support/over-http';
import { storageStateOf } from './support/staff';

test.use({ storageState: storageStateOf('operator') });

/** What the overview says: its tiles, each chart's drawing as counts, and its tables' text. */
async function figuresOn(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  return page.evaluate(() => ({
    range: document.querySelector('[data-testid="overview-range"]')?.textContent,
    tiles: [...document.querySelectorAll('[data-tile]')].map((tile) => `${tile.getAttribute('data-tile')}=${tile.textContent}`),
    bars: [...document.querySelectorAll('svg [data-count]')].map(
      (bar) => `${bar.getAttribute('data-status') ?? ''}:${bar.getAttribute('data-count')}`,
    ),
    tables: [...document.querySelectorAll('main table')].map((table) => (table as HTMLElement).textContent),
  }));
}

test('without JavaScript the overview shows the same figures as with it', async ({ page, browser }) => {
  // A request of its own, so the charts have a bar whichever specs ran before (a link, for the
  // channel filter below).
  await createOverHttp(page.request, test.info().project.use.baseURL!, { name: uniqueName('Overview Person'), shareableLink: true });
  const noScript = await browser.newContext({ storageState: storageStateOf('operator'), javaScriptEnabled: false });
  const plain = await noScript.newPage();
  for (const path of ['/overview', '/overview?period=30d&channel=link']) {
    // Other tests create requests on this server meanwhile: compare loads between which the
    // figures did not move (the same with JavaScript before and after).
    await expect(async () => {
      const before = await figuresOn(page, path);
      const without = await figuresOn(plain, path);
      const after = await figuresOn(page, path);
      expect(after).toEqual(before);
      expect(before.tiles).toHaveLength(4);
      expect(before.bars.length).toBeGreaterThan(0);
      expect(without).toEqual(before);
    }).toPass({ timeout: 30_000 });
  }
  await noScript.close();
});
