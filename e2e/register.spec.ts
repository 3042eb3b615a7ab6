// The register of recent requests on the home page: search by name or id, filters, whose
// requests, quick views, and filter values it cannot read — with and without JavaScript.
import { expect, type Page, test } from '@playwright/test';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { STAFF, storageStateOf } from './support/staff';

/** Creates a pending request (e-mail notification) as the signed-in operator; returns its id. */
async function createRequest(page: Page, name: string): Promise<string> {
  await openCreateForm(page);
  await fillBasics(page, { name, email: 'register.test@example.com' });
  await submitCreate(page);
  return createdId(page);
}

const register = (page: Page) => page.getByRole('region', { name: 'Recent requests' });
/** The requested-name link of a row: exactly one per request shown. */
const rowLink = (page: Page, name: string) => register(page).getByRole('link', { name, exact: true });
const searchBox = (page: Page) => page.getByLabel('Search by name or id');
const applyFilters = (page: Page) => page.getByRole('button', { name: 'Apply filters' }).click();

test.describe('the register of recent requests', () => {
  // Both names carry one tag no other test uses, so a search for it lists exactly these two
  // whatever else the shared server holds.
  const tag = uniqueName('rg').replace(' ', '');
  const first = `Ines Moreau ${tag}`;
  const second = `Jonas Verbeke ${tag}`;
  let secondId: string;

  test.beforeAll(async ({ browser }) => {
    // A context of its own does not inherit the project's `use`: give it the server and the
    // operator's session explicitly (E2E_BASE_URL is set by playwright.config.ts).
    const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, storageState: storageStateOf('operator') });
    const page = await context.newPage();
    await createRequest(page, first);
    secondId = await createRequest(page, second);
    await context.close();
  });

  test('search finds a name or an id; the status and creator filters narrow the list', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByLabel('Look up a verification by id')).toBeVisible();

    // By name: only the one searched for.
    await searchBox(page).fill(first.toUpperCase());
    await applyFilters(page);
    await expect(page).toHaveURL(/[?&]q=/);
    await expect(rowLink(page, first)).toHaveCount(1);
    await expect(rowLink(page, second)).toHaveCount(0);

    // By id.
    await searchBox(page).fill(secondId);
    await applyFilters(page);
    await expect(rowLink(page, second)).toHaveCount(1);
    await expect(rowLink(page, first)).toHaveCount(0);

    // The shared tag finds both.
    await searchBox(page).fill(tag);
    await applyFilters(page);
    await expect(rowLink(page, first)).toHaveCount(1);
    await expect(rowLink(page, second)).toHaveCount(1);
    // Pending, with no identified name yet.
    const row = register(page)
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: first, exact: true }) });
    await expect(row).toContainText('Pending');
    await expect(row).toContainText('Not yet identified');

    // Completed: neither has been completed.
    await page.getByLabel('Status', { exact: true }).selectOption('completed');
    await applyFilters(page);
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('completed');
    await expect(rowLink(page, first)).toHaveCount(0);
    await expect(rowLink(page, second)).toHaveCount(0);
    await expect(register(page)).toContainText('No requests match these filters.');

    // Mine (the operator created them): both, with the search kept.
    await page.getByLabel('Status', { exact: true }).selectOption('');
    await page.getByLabel('Created by').selectOption('mine');
    await applyFilters(page);
    await expect(searchBox(page)).toHaveValue(tag);
    await expect(page.getByLabel('Created by')).toHaveValue('mine');
    await expect(rowLink(page, first)).toHaveCount(1);
    await expect(rowLink(page, second)).toHaveCount(1);

    // Someone else's, chosen by name: none of these.
    await page.getByLabel('Created by').selectOption({ label: STAFF.admin.name });
    await applyFilters(page);
    await expect(rowLink(page, first)).toHaveCount(0);

    await page.getByRole('link', { name: 'Clear filters' }).first().click();
    await expect(page).toHaveURL(/\/$/);
    await expect(searchBox(page)).toHaveValue('');
  });

  test('a page view prefetches nothing; reaching for a row prefetches that row only', async ({ page }) => {
    const prefetched: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['next-router-prefetch']) prefetched.push(new URL(request.url()).pathname);
    });
    await page.goto(`/?q=${encodeURIComponent(tag)}`);
    await expect(rowLink(page, second)).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The navigation and both rows are on screen; none of them was fetched ahead.
    expect(prefetched).toEqual([]);

    await rowLink(page, second).hover();
    await expect.poll(() => prefetched).toContain(`/verifications/${secondId}`);
    expect(prefetched.every((path) => path === `/verifications/${secondId}`)).toBe(true);
  });

  test('a date or page link it cannot read is ignored with a notice; the other filters still apply', async ({ page }) => {
    await page.goto(`/?from=2024-13-45&after=page-2&q=${encodeURIComponent(first)}`);
    const notice = page.getByRole('status').filter({ hasText: 'Some filters were not understood' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('“From” date');
    await expect(notice).toContainText('The page link was not understood, so the first page is shown.');
    await expect(page.getByLabel('Created from (UTC)')).toHaveValue('');
    await expect(searchBox(page)).toHaveValue(first);
    await expect(rowLink(page, first)).toHaveCount(1);
    await expect(rowLink(page, second)).toHaveCount(0);
  });

  test('quick views keep the filters and mark the active one', async ({ page }) => {
    await page.goto(`/?q=${tag}`);
    const views = page.getByRole('navigation', { name: 'Quick views' });
    await expect(views.getByRole('link', { name: 'All', exact: true })).toHaveAttribute('aria-current', 'page');

    await views.getByRole('link', { name: /^Expiring soon/ }).click();
    await expect(page).toHaveURL(/view=expiring/);
    await expect(page).toHaveURL(new RegExp(`q=${tag}`));
    await expect(views.getByRole('link', { name: /^Expiring soon/ })).toHaveAttribute('aria-current', 'page');
    await expect(views.getByRole('link', { name: 'All', exact: true })).not.toHaveAttribute('aria-current', 'page');
    // Only pending requests can be about to expire: the status filter says so.
    await expect(page.locator('#register-status')).toHaveValue('pending');
    // Just created, seven days to go: neither is expiring soon.
    await expect(rowLink(page, first)).toHaveCount(0);

    // Filtering inside a view stays in it.
    await page.getByLabel('Created by').selectOption('mine');
    await applyFilters(page);
    await expect(page).toHaveURL(/view=expiring/);

    await views.getByRole('link', { name: 'All', exact: true }).click();
    await expect(rowLink(page, first)).toHaveCount(1);
    // The status came with the view, and goes with it.
    await expect(page.locator('#register-status')).toHaveValue('');
  });
});

test.describe('the register without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the filter form is a plain GET form', async ({ page }) => {
    const name = uniqueName('Kasper Wouters');
    await page.goto('/');
    await page.getByLabel('Search by name or id').fill(name);
    await applyFilters(page);
    await expect(page).toHaveURL(/[?&]q=Kasper\+Wouters/);
    await expect(register(page)).toContainText('No requests match these filters.');
  });
});
