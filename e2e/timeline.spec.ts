// A request's history on its detail page: created (by whom, how sent), the link copied, the page
// viewed, and the status change the service reported, which arrives live while the page is open.
// Times read as a 24-hour clock with the zone's name; administrators reach the audit trail
// narrowed to the request, operators get no such link. axe at a phone's and a wide screen's width.
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { createSharedRequest, uniqueName } from './support/fixtures';
import { completeAsThePerson } from './support/sandbox-person';
import { storageStateOf } from './support/staff';

const LIVE_BUDGET_MS = 10_000;

const entries = (page: Page) => page.getByTestId('timeline').getByRole('listitem');

test.describe('history of a request', () => {
  test.slow();

  test('lists creation, link copy, view and the reported status change, live, with 24-hour times', async ({ page, browser, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = uniqueName('Tilde Timeline');
    const { id, link } = await createSharedRequest(page, name);
    // The copy is recorded by a server action sent after the clipboard write: wait for its answer
    // before leaving the page, which would cancel it.
    const recorded = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' &&
        !!response.request().headers()['next-action'] &&
        !!response.request().postData()?.includes(id),
    );
    await page.getByRole('button', { name: 'Copy link' }).click();
    await expect(page.getByRole('button', { name: 'Link copied' })).toBeVisible();
    expect((await recorded).ok()).toBe(true);

    await page.goto(`/verifications/${id}`);
    const history = page.getByTestId('timeline');
    await expect(history.getByRole('heading', { name: 'History' })).toBeVisible();
    await expect(entries(page).first()).toContainText('Request created by Otto Operator');
    await expect(entries(page).first()).toContainText('Sent by: Shareable link');
    await expect(entries(page).filter({ hasText: 'Link copied by Otto Operator' })).toHaveCount(1);
    // An absolute time on a 24-hour clock with its zone, and how long ago.
    const time = entries(page).first().locator('time');
    await expect(time).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await expect(time).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, ([01]\d|2[0-3]):[0-5]\d \S+ \((\d+ (seconds?|minutes?) ago)\)$/);
    // Operators do not read the audit trail: no link to it.
    await expect(history.getByRole('link')).toHaveCount(0);

    await expect(page.getByText('Live', { exact: true })).toBeVisible();
    await completeAsThePerson(browser, link, name);

    // The change arrives without a reload, with this visit's view recorded before it.
    const change = entries(page).filter({ hasText: 'Status changed to Completed' });
    await expect(change).toContainText('Reported by the service', { timeout: LIVE_BUDGET_MS });
    // Views within ten minutes are one line, which counts them once there are several.
    await expect(
      entries(page)
        .filter({ hasText: /Viewed( \d+ times between \S+ and \S+)? by Otto Operator/ })
        .first(),
    ).toBeVisible();
    const order = await entries(page).allTextContents();
    expect(order.findIndex((text) => text.includes('Request created'))).toBe(0);
    expect(order.findIndex((text) => text.includes('Link copied'))).toBeLessThan(
      order.findIndex((text) => text.includes('Status changed')),
    );
    // No contact detail and no link in the history.
    await expect(history).not.toContainText('/sandbox/verify/');

    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoSeriousViolations(page, `history at ${width} px`);
    }

    // An administrator follows the history to the audit trail, narrowed to this request.
    const adminContext = await browser.newContext({ storageState: storageStateOf('admin') });
    const admin = await adminContext.newPage();
    await admin.goto(`/verifications/${id}`);
    await admin.getByTestId('timeline').getByRole('link', { name: 'See in the audit trail' }).click();
    await expect(admin).toHaveURL(new RegExp(`/audit\\?verification=${id}$`));
    await expect(admin.getByTestId('audit-entries')).toContainText('Link copied');
    await adminContext.close();
  });
});
