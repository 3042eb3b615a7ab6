// After a request: following up a failed one (the contract has no resend, a new request is what
// it allows), the result panel of a create, and the smaller things of the walk-through (a
// signed-in 404 keeps the header, a viewer's home does not invite to create).
import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

/**
 * The person fails the request on the sandbox's page, reached from the e-mail in the Outbox. The
 * page speaks the request's language: Dutch here.
 */
async function failAsThePerson(page: Page, browser: Browser, recipient: string) {
  await page.goto('/outbox');
  const message = page.getByRole('row').filter({ hasText: recipient }).first();
  const link = await message.getByRole('link', { name: /person/i }).getAttribute('href');
  expect(link).toBeTruthy();
  const person = await browser.newPage({ storageState: { cookies: [], origins: [] } });
  await person.goto(link!);
  await person.getByRole('radio', { name: 'Document verlopen' }).check();
  await person.getByRole('button', { name: 'Verificatie laten mislukken' }).click();
  await expect(person.getByRole('button', { name: 'Verificatie laten mislukken' })).toHaveCount(0);
  await person.close();
}

test.describe('following up a failed request', () => {
  test('"Create a new request" opens a prefilled form; staff retype the contact details; both requests link to each other', async ({
    page,
    browser,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = uniqueName('Élodie Follow');
    const email = `${name.split(' ').pop()}@example.com`;

    await openCreateForm(page);
    await fillBasics(page, { name, email, purpose: 'Processing a GDPR request' });
    await page.getByLabel('Language').selectOption('nl');
    await page.getByRole('switch', { name: 'SMS notification' }).check();
    await page.getByLabel('Mobile number').fill('+32 470 12 34 56');
    await submitCreate(page);
    const oldId = await createdId(page);

    // A colleague has the request open while the person fails it: the page learns it live and
    // offers the follow-up without a reload.
    const open = await context.newPage();
    await open.goto(`/verifications/${oldId}`);
    await expect(open.getByText('Live', { exact: true })).toBeVisible();
    await expect(open.getByTestId('follow-up')).toHaveCount(0);
    await failAsThePerson(page, browser, email);
    await expect(open.getByTestId('status')).toContainText('Failed', { timeout: 10_000 });
    await expect(open.getByTestId('follow-up').getByRole('link', { name: 'Create a new request' })).toBeVisible({ timeout: 10_000 });
    await open.close();

    await page.goto(`/verifications/${oldId}`);
    await expect(page.getByTestId('status')).toContainText('Failed');
    // The channels, in words that start with a capital.
    await expect(page.getByText('E-mail, SMS', { exact: true })).toBeVisible();
    await page.getByTestId('follow-up').getByRole('link', { name: 'Create a new request' }).click();

    await expect(page).toHaveURL(new RegExp(`/verifications/new\\?from=${oldId}$`));
    await expect(page.getByLabel('Full name')).toHaveValue(name);
    await expect(page.getByRole('radio', { name: 'Processing a GDPR request' })).toBeChecked();
    await expect(page.getByLabel('Language')).toHaveValue('nl');
    await expect(page.getByRole('switch', { name: 'Shareable link' })).not.toBeChecked();
    await expect(page.getByRole('switch', { name: 'E-mail notification' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'SMS notification' })).toBeChecked();
    // Contact details are not kept: empty, and the form says to type them again.
    await expect(page.getByLabel('E-mail address')).toHaveValue('');
    await expect(page.getByLabel('Mobile number')).toHaveValue('');
    await expect(page.getByText('Contact details are not kept, so type the e-mail address again')).toBeVisible();
    await expectNoSeriousViolations(page, 'prefilled follow-up form');

    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Mobile number').fill('+32 470 12 34 56');
    await submitCreate(page);
    const newId = await createdId(page);
    expect(newId).not.toBe(oldId);
    const result = page.getByTestId('creation-result');
    await expect(result.getByTestId('follow-up-outcome')).toContainText(`Follow-up of ${oldId}`);

    await page.goto(`/verifications/${newId}`);
    const newLinks = page.getByTestId('follow-up');
    await expect(newLinks).toContainText('Follow-up of');
    await expect(newLinks).toContainText('which failed');
    // A pending request is not offered a follow-up of its own.
    await expect(newLinks.getByRole('link', { name: 'Create a new request' })).toHaveCount(0);
    await newLinks.getByRole('link', { name: new RegExp(oldId) }).click();

    await expect(page).toHaveURL(new RegExp(`/verifications/${oldId}$`));
    const oldLinks = page.getByTestId('follow-up');
    await expect(oldLinks).toContainText('Followed up by');
    await expect(oldLinks.getByRole('link', { name: new RegExp(newId) })).toBeVisible();
  });

  test('an id that cannot be followed up gives an empty form that says why', async ({ page }) => {
    await page.goto('/verifications/new?from=no-such-request-here');
    await expect(page.getByText('Nothing was copied into this form')).toBeVisible();
    await expect(page.getByText("No request with the id no-such-request-here is in this dashboard's register.")).toBeVisible();
    await expect(page.getByLabel('Full name')).toHaveValue('');
    await expect(page.locator('input[name="followsVerificationId"]')).toHaveCount(0);

    // A pending request is not over: nothing to follow up yet.
    const name = uniqueName('Still Pending');
    await openCreateForm(page);
    await fillBasics(page, { name, email: 'pending@example.com' });
    await submitCreate(page);
    const pendingId = await createdId(page);
    await page.goto(`/verifications/new?from=${pendingId}`);
    await expect(
      page.getByText(`The request ${pendingId} is pending: only an expired or failed request can be followed up.`),
    ).toBeVisible();
    await expect(page.getByLabel('Full name')).toHaveValue('');
  });
});

test.describe('the result of a create', () => {
  test('sums up what was sent, copies the id, and takes the focus', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = uniqueName('Summary Person');
    await openCreateForm(page);
    await page.getByRole('switch', { name: 'Shareable link' }).check();
    await fillBasics(page, { name, purpose: 'Ensuring compliance' });
    await page.getByLabel('Language').selectOption('fr');
    await submitCreate(page);
    const id = await createdId(page);

    const result = page.getByTestId('creation-result');
    await expect(result.getByRole('heading', { level: 2, name: `Request created for ${name}` })).toBeFocused();
    const summary = result.getByTestId('creation-summary');
    await expect(summary).toContainText(name);
    await expect(summary).toContainText('Shareable link');
    await expect(summary).toContainText('Français');
    // The expiry is read from the service once the panel is up.
    await expect(summary.getByTestId('creation-link-expiry')).toContainText(/expires in \d+ days/);

    await result.getByRole('button', { name: 'Copy id' }).click();
    await expect(result.getByRole('button', { name: 'Id copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
    await expectNoSeriousViolations(page, 'creation result');
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the answer page puts the focus on the result heading too', async ({ page }) => {
      const name = uniqueName('Plain Person');
      await openCreateForm(page);
      await fillBasics(page, { name, email: 'plain@example.com' });
      await submitCreate(page);
      await createdId(page);
      await expect(page.getByRole('heading', { level: 2, name: `Request created for ${name}` })).toBeFocused();
      await expect(page.getByTestId('creation-summary')).toContainText('E-mail');
    });
  });
});

test.describe('smaller things', () => {
  test('a signed-in unknown address shows "Page not found" inside the dashboard, header and all', async ({ page, browser }) => {
    const response = await page.goto('/no-such-page/at-all');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(page.getByTestId('signed-in-as')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('main')).toHaveCount(1);
    await expectNoSeriousViolations(page, 'signed-in 404');

    // Signed out, the same page without the dashboard's header.
    const anonymous = await browser.newPage({ storageState: { cookies: [], origins: [] } });
    const missing = await anonymous.goto('/sandbox/no-such-page');
    expect(missing?.status()).toBe(404);
    await expect(anonymous.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(anonymous.getByTestId('signed-in-as')).toHaveCount(0);
    await expect(anonymous.getByRole('main')).toHaveCount(1);
    await anonymous.close();
  });

  test("a viewer's home does not invite them to create", async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStateOf('viewer') });
    const viewer = await context.newPage();
    await viewer.goto('/');
    await expect(viewer.getByRole('heading', { level: 1, name: 'Verification requests' })).toBeVisible();
    await expect(viewer.getByText('Look requests up and follow their status.')).toBeVisible();
    await expect(viewer.getByText('Create requests, share their links')).toHaveCount(0);
    await expect(viewer.locator('a[href="/verifications/new"]')).toHaveCount(0);
    await context.close();
  });
});
