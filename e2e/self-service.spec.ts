// Self-service and account fixes in the browser: changing one's own password, one's active
// sessions and "sign out all other sessions", disabling a colleague through the confirmation
// dialog (and its page without JavaScript), and enabling them again.
//
// A server of its own (port offset 140) on a fresh data directory, with fresh accounts made by
// the users CLI before it starts: nothing here touches the shared accounts or their passwords,
// and the wrong passwords typed here count against nobody else's sign-ins.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { createStaffUsers } from './kit/cli.mjs';
import { expectNoSeriousViolations } from './support/accessibility';
import { type NextServer, startNextServer } from './support/next-server';
import { portFor } from './support/ports';

const PORT = portFor(140);
const SIGNED_OUT = { cookies: [], origins: [] };
const WRONG_CREDENTIALS = 'Incorrect e-mail address or password.';

type Account = { name: string; email: string; password: string; role: 'admin' | 'operator' | 'viewer' };

const ACCOUNTS = {
  admin: { name: 'Sally Selfservice', email: 'sally.admin@example.com', password: 'sally admin passphrase', role: 'admin' },
  changer: { name: 'Pat Password', email: 'pat@example.com', password: 'pat the first passphrase', role: 'operator' },
  sessions: { name: 'Sam Sessions', email: 'sam@example.com', password: 'sam sessions passphrase', role: 'viewer' },
  disabled: { name: 'Dora Dormant', email: 'dora@example.com', password: 'dora dormant passphrase', role: 'viewer' },
  noScript: { name: 'Nora Noscript', email: 'nora@example.com', password: 'nora noscript passphrase', role: 'viewer' },
} as const satisfies Record<string, Account>;

let server: NextServer;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-self-service-'));
  // The CLI refuses while a server holds the directory: accounts first, then the server.
  createStaffUsers(dataDir, Object.values(ACCOUNTS));
  server = await startNextServer({ port: PORT, dataDir, env: { APP_URL: `http://localhost:${PORT}` } });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function newContext(browser: Browser, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> {
  return browser.newContext({ baseURL: server.url, storageState: SIGNED_OUT, ...options });
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** A browser of its own, signed in as `account`. */
async function signedIn(browser: Browser, account: Account, options: { javaScriptEnabled?: boolean } = {}) {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(`${server.url}/`);
  return { context, page };
}

/** Does this browser still have a session? Its next page says. */
async function isSignedIn(page: Page): Promise<boolean> {
  await page.goto('/');
  return !new URL(page.url()).pathname.startsWith('/sign-in');
}

const staffRow = (page: Page, account: Account) => page.getByRole('row').filter({ hasText: account.email });
/** The Role column: the role's name, or "Disabled". */
const roleCell = (page: Page, account: Account) => staffRow(page, account).getByRole('cell').nth(1);

// Every test here signs several accounts in with a password (a deliberately slow hash) and
// often changes one: more than the default budget on a busy machine.
test.slow();

test('changing my own password: the old one stops working, the new one works, my other browser is signed out', async ({ browser }) => {
  const account = ACCOUNTS.changer;
  const NEW_PASSWORD = 'pat the second, better passphrase';
  const mine = await signedIn(browser, account);
  const other = await signedIn(browser, account);
  const page = mine.page;

  // From the header to the account page.
  await page.getByRole('link', { name: /Your account/ }).click();
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
  expect(await isSignedIn(page)).toBe(true);
  expect(await isSignedIn(other.page)).toBe(false);

  const fresh = await newContext(browser);
  const freshPage = await fresh.newPage();
  await signIn(freshPage, account.email, account.password);
  await expect(freshPage.locator('form').getByRole('alert')).toContainText(WRONG_CREDENTIALS);
  await signIn(freshPage, account.email, NEW_PASSWORD);
  await expect(freshPage).toHaveURL(`${server.url}/`);
  await Promise.all([mine.context.close(), other.context.close(), fresh.close()]);
});

test('active sessions: both browsers listed, this one marked, and "sign out all other sessions" ends the other', async ({ browser }) => {
  const account = ACCOUNTS.sessions;
  const mine = await signedIn(browser, account);
  const other = await signedIn(browser, account);
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

  expect(await isSignedIn(other.page)).toBe(false);
  expect(await isSignedIn(page)).toBe(true);
  await Promise.all([mine.context.close(), other.context.close()]);
});

test('disabling asks in a dialog (Escape cancels, confirming disables and signs them out), and enabling lets them sign in again', async ({
  browser,
}) => {
  const colleague = ACCOUNTS.disabled;
  const admin = await signedIn(browser, ACCOUNTS.admin);
  const theirs = await signedIn(browser, colleague);
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

  // Escape cancels: nothing happened, and focus is back on the button that opened it.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
  await page.reload();
  await expect(roleCell(page, colleague)).toHaveText('Viewer');
  expect(await isSignedIn(theirs.page)).toBe(true);

  // Confirming disables, and their open session ends.
  await staffRow(page, colleague)
    .getByRole('link', { name: `Disable ${colleague.name}` })
    .click();
  await dialog.getByRole('button', { name: `Disable ${colleague.name}` }).click();
  await expect(dialog).toBeHidden();
  await expect(roleCell(page, colleague)).toHaveText('Disabled');
  expect(await isSignedIn(theirs.page)).toBe(false);
  await signIn(theirs.page, colleague.email, colleague.password);
  await expect(theirs.page.locator('form').getByRole('alert')).toContainText(WRONG_CREDENTIALS);

  // Enabled again: they sign in as usual.
  await staffRow(page, colleague)
    .getByRole('button', { name: `Enable ${colleague.name}` })
    .click();
  await expect(roleCell(page, colleague)).toHaveText('Viewer');
  await expect(staffRow(page, colleague).getByRole('link', { name: `Disable ${colleague.name}` })).toBeVisible();
  await signIn(theirs.page, colleague.email, colleague.password);
  await expect(theirs.page).toHaveURL(`${server.url}/`);
  await expect(theirs.page.getByTestId('signed-in-as')).toHaveText(colleague.name);
  await Promise.all([admin.context.close(), theirs.context.close()]);
});

test('without JavaScript, Disable leads to a confirmation page and never acts in one click', async ({ browser }) => {
  const colleague = ACCOUNTS.noScript;
  const admin = await signedIn(browser, ACCOUNTS.admin, { javaScriptEnabled: false });
  const page = admin.page;

  await page.goto('/staff');
  await staffRow(page, colleague)
    .getByRole('link', { name: `Disable ${colleague.name}` })
    .click();
  await expect(page.getByRole('heading', { name: `Disable ${colleague.name}?` })).toBeVisible();
  // axe runs in the page, so the same page is checked in a browser with JavaScript.
  const withScript = await signedIn(browser, ACCOUNTS.admin);
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
