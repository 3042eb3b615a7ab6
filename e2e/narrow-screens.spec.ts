// Staff sometimes check a request from a phone or a tablet. On a narrow screen no page may be
// wider than the screen (a page that scrolls sideways hides its own header and edges), and the
// header's actions stay on screen, with their names for screen readers. The pages with tables
// (staff, outbox, webhooks, queue) are walked at the same widths by responsive-layout.spec.ts.
import { expect, type Page, test } from '@playwright/test';
import { createdId, fillBasics, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

const PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 800 };

async function expectNoSidewaysScroll(page: Page, state: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${state} at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
}

/**
 * The page as it is, at a tablet's width and then a phone's. One load serves both: the layout
 * follows the window (as when a tablet turns), and the page is left at a phone's width.
 */
async function expectFits(page: Page, state: string) {
  for (const size of [TABLET, PHONE]) {
    await page.setViewportSize(size);
    await expectNoSidewaysScroll(page, state);
  }
}

async function expectOnScreen(page: Page, locator: ReturnType<Page['locator']>, what: string) {
  await expect(locator, what).toBeVisible();
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, what).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge`).toBeLessThanOrEqual(width);
}

test.describe('narrow screens (admin)', () => {
  test.use({ storageState: storageStateOf('admin') });

  test("no dashboard page is wider than a phone or a tablet, and the header's actions and every navigation link stay reachable on a phone", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(PHONE);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectFits(page, '/');

    await test.step("the header's actions and the navigation, on a phone", async () => {
      const header = page.getByRole('banner');
      // Icon-only on a phone, but still named for screen readers and on screen.
      await expectOnScreen(page, header.getByRole('link', { name: 'New request' }), 'New request');
      await expectOnScreen(page, header.getByRole('button', { name: 'Sign out' }), 'Sign out');
      const nav = page.getByRole('navigation', { name: 'Main' });
      const administration = page.getByRole('navigation', { name: 'Administration' });
      for (const [menu, name] of [
        [nav, 'Requests'],
        [administration, 'Staff'],
        [nav, 'Audit trail'],
        [administration, 'Webhooks'],
      ] as const) {
        const link = menu.getByRole('link', { name });
        await link.scrollIntoViewIfNeeded();
        await expectOnScreen(page, link, name);
      }
      await nav.getByRole('link', { name: 'Audit trail' }).click();
      await expect(page).toHaveURL(/\/audit$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectFits(page, '/audit');
      await header.getByRole('link', { name: 'New request' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'New verification request' })).toBeVisible();
      await expectFits(page, '/verifications/new');
    });

    // A register row with a shareable link and two channels: the widest row the table has.
    await page.getByRole('switch', { name: 'Shareable link' }).check();
    await page.getByRole('switch', { name: 'SMS notification' }).check();
    await page.getByLabel('Mobile number').fill('+32 470 12 34 56');
    await fillBasics(page, { name: uniqueName('Narrow Screen Person'), purpose: 'Ensuring compliance' });
    await submitCreate(page);
    const id = await createdId(page);
    await expectFits(page, 'the creation result');
    // The person's page is the one most often opened on a phone.
    const personLink = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue();

    const paths = [
      personLink,
      '/?view=expiring',
      `/verifications/${id}`,
      '/verifications/not-a-valid-id',
      // The overview's charts are drawn at a phone's proportions there.
      '/overview',
    ];
    for (const path of paths) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectFits(page, path === personLink ? "the person's page" : path);
    }
  });
});

test.describe('narrow screens (signed out)', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('sign-in fits a phone', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/sign-in');
    await expectNoSidewaysScroll(page, '/sign-in');
  });
});
