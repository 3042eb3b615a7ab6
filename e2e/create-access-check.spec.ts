// The create page asks whether its session may still create each time its tab is shown again,
// so staff who come back to a half-filled form learn at once that it would be refused, and keep
// what they typed.
import { expect, type Page, test } from '@playwright/test';
import { fillBasics, openCreateForm, uniqueName } from './support/fixtures';
import { STAFF } from './support/staff';

// A session of its own: signing out must not end the operator session the other tests share.
test.use({ storageState: { cookies: [], origins: [] } });

/** The tab is shown again (headless pages never hide, so the event is what the test can give). */
async function showTabAgain(page: Page) {
  const asked = page.waitForResponse((r) => r.request().method() === 'POST' && !!r.request().headers()['next-action']);
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  return asked;
}

test('coming back to the create form after signing out elsewhere says the session has ended, keeping what was typed', async ({
  context,
  page,
}) => {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address').fill(STAFF.operator.email);
  await page.getByLabel('Password').fill(STAFF.operator.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(STAFF.operator.name);

  const name = uniqueName('Returning Person');
  await openCreateForm(page);
  await fillBasics(page, { name, email: 'returning@example.com' });
  const notice = page.getByRole('alert').filter({ hasText: 'Your session has ended' });

  // Still signed in: the check is answered, and nothing is said.
  expect((await showTabAgain(page)).status()).toBe(200);
  await expect(page.getByLabel('Full name')).toHaveValue(name);
  await expect(notice).toHaveCount(0);

  // Signed out in another tab of the same browser.
  const other = await context.newPage();
  await other.goto('/');
  await other.getByRole('button', { name: 'Sign out' }).click();
  await other.waitForURL(/\/sign-in/);
  await other.close();

  await showTabAgain(page);
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Sign in again in another tab to keep what you typed here');
  await expect(page.getByLabel('Full name')).toHaveValue(name);
  await expect(page.getByLabel('E-mail address')).toHaveValue('returning@example.com');
});
