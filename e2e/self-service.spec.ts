// Self-service and account fixes in the browser: changing one's own password, one's active
// sessions and "sign out all other sessions", disabling a colleague through the confirmation
// dialog (and its page without JavaScript), and enabling them again.
//
// On the shared server, with a fresh account per test that nobody else uses: the administrator's
// stored session creates it and the colleague accepts the invitation over HTTP
// (e2e/support/colleague-over-http.ts). Adding a colleague and signing in through the pages are
// other specs' subjects; here sessions come from those requests, and a person's other browser is
// just its session cookie. Sign-ins checked here come from a loopback address of this file's own
// (127.0.0.12), so their failures count against nobody else's network; the one wrong current
// password typed in the browser counts for the browsers' network.
import { type APIRequestContext, type Browser, expect, type Page, request, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { colleagueOverHttp, type NewColleague } from './support/colleague-over-http';
import { uniqueName } from './support/fixtures';
import { opensDashboard, type StorageState, sessionOverHttp } from './support/over-http';
import { signInFrom } from './support/sign-in-from';
import { type Role, storageStateOf } from './support/staff';

const ADMIN_STATE = storageStateOf('admin');

/** A new colleague's details: a unique name and e-mail address for this run. */
function newColleague(base: string, role: Role): NewColleague {
  const name = uniqueName(base);
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '.');
  return { name, email: `${slug}@example.com`, role, password: `${slug} passphrase` };
}

/** The colleague's account, made through the product; their session (signed in by the invitation). */
const create = (baseURL: string | undefined, colleague: NewColleague, userAgent?: string) =>
  colleagueOverHttp(baseURL!, ADMIN_STATE, colleague, userAgent);

/** A browser of its own with a session. */
async function browserWith(
  browser: Browser,
  baseURL: string | undefined,
  state: StorageState | string,
  options: { javaScriptEnabled?: boolean } = {},
) {
  const context = await browser.newContext({ baseURL, storageState: state, ...options });
  return { context, page: await context.newPage() };
}

/** Another browser of the same person, seen only through its session cookie. */
const otherBrowser = (baseURL: string | undefined, state: StorageState): Promise<APIRequestContext> =>
  request.newContext({ baseURL, storageState: state });

/** A password sign-in as the sign-in form sends it: its outcome, no browser needed. */
const signInOutcome = async (baseURL: string | undefined, colleague: NewColleague, password = colleague.password) =>
  (await signInFrom(baseURL!, { localAddress: '127.0.0.12', email: colleague.email, password })).outcome;

const staffRow = (page: Page, colleague: NewColleague) => page.getByRole('row').filter({ hasText: colleague.email });
/** The Role column: the role's name, or "Disabled". */
const roleCell = (page: Page, colleague: NewColleague) => staffRow(page, colleague).getByRole('cell').nth(1);

// Password changes and sign-ins (a deliberately slow hash) on a busy machine: more than the default budget.
test.slow();

test('changing my own password: the old one stops working, the new one works, my other browser is signed out', async ({
  browser,
  baseURL,
  userAgent,
}) => {
  const account = newColleague('Pat Password', 'operator');
  const NEW_PASSWORD = 'pat the second, better passphrase';
  const mine = await browserWith(browser, baseURL, await create(baseURL, account, userAgent));
  const other = await otherBrowser(baseURL, await sessionOverHttp(baseURL!, account));
  const page = mine.page;

  // The header's name leads to the account page.
  await page.goto('/account');
  await expect(page.getByRole('link', { name: /Your account/ })).toHaveAttribute('href', '/account');
  await expect(page.getByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
  const main = page.locator('main');
  await expect(main.getByText(account.email)).toBeVisible();
  await expect(main.locator('dd').nth(2)).toContainText('Operator');

  // A common new password is refused on its field; a wrong current one on its own. The switch
  // keeps what was chosen, the password fields are empty again.
  const endOthers = page.getByRole('switch', { name: 'Sign out my other sessions' });
  await expect(endOthers).toBeChecked();
  await page.getByLabel('Current password').fill(account.password);
  await page.getByLabel('New password', { exact: true }).fill('qwerty123456');
  await page.getByLabel('Repeat the new password').fill('qwerty123456');
  await endOthers.uncheck();
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.locator('#newPassword-error')).toContainText('one of the most common ones');
  await expect(endOthers).not.toBeChecked();
  await expect(page.getByLabel('Current password')).toHaveValue('');

  await endOthers.check();
  await page.getByLabel('Current password').fill('not my password at all');
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.locator('#currentPassword-error')).toHaveText('This is not your current password.');
  await expectNoSeriousViolations(page, 'account page with errors');

  await page.getByLabel('Current password').fill(account.password);
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toContainText('1 other session ended.');

  // This browser stays signed in; the other one is out.
  expect(await opensDashboard(page.request)).toBe(true);
  expect(await opensDashboard(other)).toBe(false);

  // The old password no longer signs in; the new one does.
  expect(await signInOutcome(baseURL, account)).toBe('wrong');
  expect(await signInOutcome(baseURL, account, NEW_PASSWORD)).toBe('signed-in');
  await Promise.all([mine.context.close(), other.dispose()]);
});

test('active sessions: both browsers listed, this one marked, and "sign out all other sessions" ends the other', async ({
  browser,
  baseURL,
  userAgent,
}) => {
  const account = newColleague('Sam Sessions', 'viewer');
  const mine = await browserWith(browser, baseURL, await create(baseURL, account, userAgent));
  const other = await otherBrowser(baseURL, await sessionOverHttp(baseURL!, { ...account, userAgent }));
  const page = mine.page;

  await page.goto('/account');
  const rows = page.getByTestId('active-sessions').getByRole('row');
  await expect(rows).toHaveCount(2);
  // Browser and system, from the stored user agent (the project's Desktop Chrome says Windows); never an address.
  await expect(rows.first()).toContainText(/Chrome \d+ on (Windows|Linux)/);
  await expect(rows.first()).toContainText('This device');
  await expect(rows.nth(1)).not.toContainText('This device');
  await expect(page.getByTestId('active-sessions')).not.toContainText('127.0.0.1');
  await expectNoSeriousViolations(page, 'account page');

  await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Signed out of' })).toHaveText('Signed out of 1 other session.');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('This device');

  expect(await opensDashboard(other)).toBe(false);
  expect(await opensDashboard(page.request)).toBe(true);
  await Promise.all([mine.context.close(), other.dispose()]);
});

test('disabling asks in a dialog (Escape cancels, confirming disables and signs them out), and enabling lets them sign in again', async ({
  browser,
  baseURL,
}) => {
  const colleague = newColleague('Dora Dormant', 'viewer');
  const theirs = await otherBrowser(baseURL, await create(baseURL, colleague));
  const admin = await browserWith(browser, baseURL, ADMIN_STATE);
  const page = admin.page;

  await page.goto('/staff');
  const row = staffRow(page, colleague);
  const trigger = row.getByRole('link', { name: `Disable ${colleague.name}` });
  await trigger.click();
  const dialog = page.getByRole('dialog', { name: `Disable ${colleague.name}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Their sessions end at once, on every server of the dashboard');
  // Opens on the safe answer.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectNoSeriousViolations(page, 'staff page with the disable dialog open');

  // Escape cancels: focus is back on the button that opened it, and nothing happened on the
  // server (disabling would have ended their session).
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
  await expect(roleCell(page, colleague)).toHaveText('Viewer');
  expect(await opensDashboard(theirs)).toBe(true);

  // Confirming disables, and their open session ends; the right password no longer signs in.
  await trigger.click();
  await dialog.getByRole('button', { name: `Disable ${colleague.name}` }).click();
  await expect(dialog).toBeHidden();
  await expect(roleCell(page, colleague)).toHaveText('Disabled');
  expect(await opensDashboard(theirs)).toBe(false);
  expect(await signInOutcome(baseURL, colleague)).toBe('wrong');

  // Enabled again: they sign in as usual.
  await staffRow(page, colleague)
    .getByRole('button', { name: `Enable ${colleague.name}` })
    .click();
  await expect(roleCell(page, colleague)).toHaveText('Viewer');
  await expect(staffRow(page, colleague).getByRole('link', { name: `Disable ${colleague.name}` })).toBeVisible();
  expect(await signInOutcome(baseURL, colleague)).toBe('signed-in');
  await Promise.all([admin.context.close(), theirs.dispose()]);
});

test('without JavaScript, Disable leads to a confirmation page and never acts in one click', async ({ browser, baseURL }) => {
  const colleague = newColleague('Nora Noscript', 'viewer');
  await create(baseURL, colleague);
  const admin = await browserWith(browser, baseURL, ADMIN_STATE, { javaScriptEnabled: false });
  const page = admin.page;

  await page.goto('/staff');
  await staffRow(page, colleague)
    .getByRole('link', { name: `Disable ${colleague.name}` })
    .click();
  await expect(page.getByRole('heading', { name: `Disable ${colleague.name}?` })).toBeVisible();
  // axe runs in the page, so the same page is checked in a browser with JavaScript (same session).
  const withScript = await browserWith(browser, baseURL, ADMIN_STATE);
  await withScript.page.goto(new URL(page.url()).pathname);
  await expect(withScript.page.getByRole('heading', { name: `Disable ${colleague.name}?` })).toBeVisible();
  await expectNoSeriousViolations(withScript.page, 'disable confirmation page');
  await withScript.context.close();

  // One click did nothing.
  await page.goto('/staff');
  await expect(roleCell(page, colleague)).toHaveText('Viewer');

  await staffRow(page, colleague)
    .getByRole('link', { name: `Disable ${colleague.name}` })
    .click();
  await page.getByRole('button', { name: `Disable ${colleague.name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `${colleague.name} is disabled` })).toBeVisible();
  await page.getByRole('link', { name: 'Back to staff' }).click();
  await expect(roleCell(page, colleague)).toHaveText('Disabled');
  await admin.context.close();
});
