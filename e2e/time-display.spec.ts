// One way to show time: a staff member whose browser is in New York, with an American locale,
// sees the same 24-hour time with the zone's name for one request on the register, the detail
// page (its "Request" card and its history) and the audit trail; never AM/PM; the date filters
// name the zone their days are in; and the relative times of the creation summary and the detail
// page agree. The browser reports its zone in a cookie, so the server renders in it too.
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { createdId, createSharedRequest, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

const ZONE = 'America/New_York';
/** "24 Nov 2026, 09:05 EST": a 24-hour clock, and New York's zone by name. */
const NEW_YORK_TIME = /^\d{1,2} [A-Z][a-z]{2} \d{4}, ([01]\d|2[0-3]):[0-5]\d E[SD]T$/;

async function expectNoTwelveHourClock(page: Page) {
  expect(await page.locator('body').innerText()).not.toMatch(/\b\d{1,2}:\d\d\s?[AP]M\b/i);
}

test.describe('time shown in the staff member’s zone', () => {
  let context: BrowserContext;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext({
      baseURL: process.env.E2E_BASE_URL,
      storageState: storageStateOf('admin'),
      timezoneId: ZONE,
      locale: 'en-US',
    });
    page = await context.newPage();
  });

  test.afterAll(async () => {
    await context.close();
  });

  test('register, detail page and audit trail show one request at the same 24-hour time with the zone', async () => {
    // The first page tells the server the browser's zone.
    await page.goto('/');
    await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'vd-time-zone')?.value).toBe(ZONE);
    await expect(page.getByLabel(`Created from (${ZONE})`)).toBeVisible();

    const name = uniqueName('Tz Walker');
    await openCreateForm(page);
    await fillBasics(page, { name, email: 'tz.walker@example.com' });
    await submitCreate(page);
    const id = await createdId(page);
    const summaryExpiry = page.getByTestId('creation-link-expiry');
    await expect(summaryExpiry).toContainText(/E[SD]T\s*\(expires in \d+ days?\)/);
    const summaryRelative = (await summaryExpiry.innerText()).match(/\((expires in [^)]+)\)/)?.[1];

    // The register.
    await page.goto(`/?q=${id}`);
    const row = page.getByRole('region', { name: 'Recent requests' }).getByRole('row').filter({ hasText: name });
    // The register sets the date above the time (one line each): read as the other pages write it.
    const registerTime = (await row.locator('time').first().innerText()).trim().replace(/\s*\n\s*/, ', ');
    expect(registerTime).toMatch(NEW_YORK_TIME);
    await expectNoTwelveHourClock(page);

    // The detail page: the request card, the history, and the link's deadline phrased as the
    // creation summary phrased it.
    await page.goto(`/verifications/${id}`);
    const created = page.locator('dt:text-is("Created") + dd time');
    await expect(created).toHaveText(registerTime);
    const history = page.getByTestId('timeline').getByRole('listitem').first().locator('time');
    await expect(history).toHaveText(new RegExp(`^${registerTime} \\((\\d+ (seconds?|minutes?) ago)\\)$`));
    const validUntil = page.locator('dt:text-is("Link valid until") + dd');
    await expect(validUntil).toContainText(/E[SD]T/);
    await expect(validUntil).toContainText(`(${summaryRelative})`);
    await expectNoTwelveHourClock(page);

    // The audit trail, narrowed to today in New York: the same time, and dates read in the same
    // zone. Today selects the request; the day before does not (the server's answer is enough).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
    await page.goto(`/audit?verification=${id}&from=${today}&to=${today}`);
    await expect(page.getByLabel(`From (${ZONE})`)).toBeVisible();
    const audited = page.getByTestId('audit-entries').locator('tr[data-action="verification.created"] time');
    await expect(audited).toHaveText(registerTime);
    await expectNoTwelveHourClock(page);
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const dayBefore = await (await page.request.get(`/audit?verification=${id}&from=${yesterday}&to=${yesterday}`)).text();
    expect(dayBefore).toContain('No entries match these filters.');
    expect(dayBefore).not.toContain('data-action="verification.created"');
  });

  test("the person's page gives the link's deadline in the person's own zone, not in UTC", async () => {
    const { link } = await createSharedRequest(page, uniqueName('Tz Person'));
    await page.goto(link);
    const deadline = page.getByTestId('person-deadline');
    // Written by the server in UTC, then by the browser in its own zone, named.
    await expect(deadline).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}(,| at) \d{1,2}:\d\d [AP]M E[SD]T$/);
    await expect(page.getByText(/\bUTC\b/)).toHaveCount(0);
  });
});
