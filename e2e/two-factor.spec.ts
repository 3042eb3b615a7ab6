// Two-factor authentication in a real browser: enrolment read off the page (the manual key
// becomes an authenticator computing codes, with otpauth), the code prompt after the password,
// wrong codes, backup codes that work once, all of it also without JavaScript, an administrator's
// reset and its audit entry, and REQUIRE_2FA on a server of its own. Each test uses a fresh
// account of its own (e2e/support/staff.ts, SEEDED), so the shared accounts of the other specs
// keep their password-only sign-in. A sign-in that only opens the way to enrolment is made over
// HTTP (e2e/support/over-http.ts); the sign-ins that meet the code prompt use the page.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { newDataDir } from './support/data-dirs';
import { type NextServer, startNextServer } from './support/next-server';
import { opensDashboard, sessionOverHttp } from './support/over-http';
import { portFor } from './support/ports';
import { type SeededKey, seededAccount, storageStateOf } from './support/staff';
import { enrolOnPage, finishEnrolmentOnPage, signOut, startEnrolmentOnPage, submitPassword, wrongCodeFor } from './support/two-factor';

const NO_SESSION = { cookies: [], origins: [] };

type Account = { name: string; email: string; password: string };

/**
 * A fresh password-only account for this test and attempt, made before the server started
 * (playwright.config.ts), so the shared accounts of the other specs keep their password-only sign-in.
 */
const newAccount = (key: SeededKey): Account => seededAccount(key, test.info().retry);

const promptAlert = (page: Page) => page.locator('form').getByRole('alert');

/** Gives the page's browser a session of `account`, signed in over HTTP (the password step is not the subject). */
async function signedInOverHttp(page: Page, baseURL: string | undefined, account: Account, userAgent: string | undefined) {
  const state = await sessionOverHttp(baseURL!, { ...account, userAgent });
  await page.context().addCookies(state.cookies);
}

test.describe('two-factor authentication', () => {
  test.use({ storageState: NO_SESSION });
  test.slow();

  test('enrolment needs the password and a correct code; then sign-in asks for the code, refuses a wrong one, a backup code signs in, and 5 wrong codes mean starting again with the password', async ({
    page,
    baseURL,
    userAgent,
  }) => {
    const account = newAccount('twoFactorEnrol');
    await signedInOverHttp(page, baseURL, account, userAgent);

    const { totp, backupCodes } = await test.step('enrolment: the password, then a correct code; the backup codes shown once', async () => {
      await page.goto('/account/two-factor');
      await expectNoSeriousViolations(page, 'enrolment, password step');
      await page.getByLabel('Current password').fill('not-my-password-at-all');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.locator('#password-error')).toHaveText('That is not your current password.');

      const totp = await startEnrolmentOnPage(page, account.password);
      await expect(page.getByRole('button', { name: 'Copy key' })).toBeVisible();
      await expectNoSeriousViolations(page, 'enrolment, scan step');
      await page.getByLabel('6-digit code').fill(wrongCodeFor(totp));
      await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
      await expect(page.locator('#code-error')).toContainText('That code is not right.');
      // Still the same key: the page shows the set-up again, nothing was switched on.
      const backupCodes = await finishEnrolmentOnPage(page, totp);
      await expect(page.getByText('each of these codes signs you in once')).toBeVisible();
      await expectNoSeriousViolations(page, 'enrolment, backup codes');

      const downloading = page.waitForEvent('download');
      await page.getByRole('link', { name: 'Download as text' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('verification-desk-backup-codes.txt');
      const text = readFileSync((await download.path())!, 'utf8');
      for (const code of backupCodes) expect(text).toContain(code);
      return { totp, backupCodes };
    });

    await test.step('the password alone no longer signs in: the prompt asks for the code, and refuses a wrong one', async () => {
      await signOut(page);
      await submitPassword(page, account.email, account.password, '/verifications');
      await expect(page).toHaveURL(/\/sign-in\/two-factor\?next=%2Fverifications$/);
      const code = page.getByLabel('6-digit code');
      await expect(code).toHaveAttribute('autocomplete', 'one-time-code');
      await expect(code).toHaveAttribute('inputmode', 'numeric');
      await expectNoSeriousViolations(page, 'code prompt');
      expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('vdesk.session_token');

      await code.fill(wrongCodeFor(totp));
      await page.getByRole('button', { name: 'Verify and sign in' }).click();
      await expect(page.locator('#code-error')).toContainText('That code is not right.');
      await expect(page).toHaveURL(/\/sign-in\/two-factor/);
      await page.getByLabel('6-digit code').fill(totp.generate());
      await page.getByRole('button', { name: 'Verify and sign in' }).click();
      await expect(page).toHaveURL(`${baseURL}/verifications`);
      await expect(page.getByRole('banner').getByTestId('signed-in-as')).toHaveText(account.name);
    });

    // That a backup code works once, and its second use is refused, is the server's to prove
    // (lib/auth/two-factor/two-factor.test.ts); here, the way to it on the page.
    await test.step('a backup code instead of the app', async () => {
      await signOut(page);
      await submitPassword(page, account.email, account.password);
      await page.getByRole('link', { name: 'Use a backup code instead' }).click();
      await expectNoSeriousViolations(page, 'backup code prompt');
      await page.getByLabel('Backup code').fill(backupCodes[0]!);
      await page.getByRole('button', { name: 'Verify and sign in' }).click();
      // An operator starts on the queue.
      await expect(page).toHaveURL(`${baseURL}/queue`);
    });

    await test.step('after 5 wrong codes the sign-in must start again with the password', async () => {
      await signOut(page);
      await submitPassword(page, account.email, account.password);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        await page.getByLabel('6-digit code').fill(wrongCodeFor(totp));
        await page.getByRole('button', { name: 'Verify and sign in' }).click();
        await expect(page.locator('#code-error'), `attempt ${attempt}`).toContainText('That code is not right.');
      }
      await page.getByLabel('6-digit code').fill(totp.generate());
      await page.getByRole('button', { name: 'Verify and sign in' }).click();
      await expect(promptAlert(page)).toContainText('Too many wrong codes for this sign-in.');
      await promptAlert(page).getByRole('link', { name: 'Sign in again' }).click();
      await expect(page).toHaveURL(/\/sign-in$/);
    });
  });

  test('enrolment and the code prompt work without JavaScript', async ({ browser, baseURL, userAgent }) => {
    const account = newAccount('twoFactorNoScript');
    const context = await browser.newContext({ baseURL, storageState: NO_SESSION, javaScriptEnabled: false });
    const page = await context.newPage();
    await signedInOverHttp(page, baseURL, account, userAgent);
    await page.goto('/account/two-factor');
    const totp = await startEnrolmentOnPage(page, account.password);
    await page.getByLabel('6-digit code').fill(wrongCodeFor(totp));
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    await expect(page.locator('#code-error')).toContainText('That code is not right.');
    const backupCodes = await finishEnrolmentOnPage(page, totp);

    await signOut(page);
    await submitPassword(page, account.email, account.password);
    await expect(page).toHaveURL(/\/sign-in\/two-factor/);
    await page.getByLabel('6-digit code').fill(wrongCodeFor(totp));
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(page.locator('#code-error')).toContainText('That code is not right.');
    await page.getByLabel('6-digit code').fill(totp.generate());
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(page).toHaveURL(`${baseURL}/`);

    await signOut(page);
    await submitPassword(page, account.email, account.password);
    await page.getByRole('link', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup code').fill(backupCodes[9]!);
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(page).toHaveURL(`${baseURL}/`);
    await context.close();
  });

  test("an administrator resets a colleague's second factor: their sessions end, the password alone signs in, and the audit trail has it", async ({
    page,
    browser,
    baseURL,
    userAgent,
  }) => {
    const account = newAccount('twoFactorReset');
    await signedInOverHttp(page, baseURL, account, userAgent);
    await page.goto('/account/two-factor');
    await enrolOnPage(page, account.password);
    expect(await opensDashboard(page.request)).toBe(true);

    const admin = await browser.newContext({ baseURL, storageState: storageStateOf('admin') });
    const adminPage = await admin.newPage();
    await adminPage.goto('/staff');
    // The administrator's own row has no reset.
    await expect(adminPage.getByRole('row').filter({ hasText: '(you)' }).locator('summary')).toHaveCount(0);
    const row = adminPage.getByRole('row').filter({ hasText: account.email });
    await row.locator('summary', { hasText: 'Reset two-factor' }).click();
    await expect(row).toContainText('Their sessions end now.');
    await row.getByRole('button', { name: `Yes, reset two-factor of ${account.name}` }).click();
    // The page updates at once: the colleague has no second factor left to reset.
    await expect(row.locator('summary')).toHaveCount(0);

    for (const action of ['two_factor.reset', 'two_factor.enrolled']) {
      const trail = await adminPage.request.get(`/audit?action=${action}`);
      expect(trail.status()).toBe(200);
      expect(await trail.text(), action).toContain(`data-action="${action}"`);
    }
    await admin.close();

    // The colleague's session has ended; the password alone signs in again (no code asked:
    // the sign-in answers with a session).
    expect(await opensDashboard(page.request, '/verifications')).toBe(false);
    await sessionOverHttp(baseURL!, account);
  });
});

test.describe('REQUIRE_2FA=on', () => {
  // E2E_PORT + 120…129 are this file's to use.
  const PORT = portFor(120);
  const BASE_URL = `http://localhost:${PORT}`;
  const ADMIN = { name: 'Rhea Required', email: 'rhea.required@example.com', password: 'required-admin-password-42' };
  let server: NextServer | undefined;
  let dataDir = '';

  // Cookies are not scoped by port: start with none of the shared server's.
  test.use({ baseURL: BASE_URL, storageState: NO_SESSION });
  test.slow();

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dataDir = newDataDir('require-2fa');
    server = await startNextServer({ port: PORT, dataDir, env: { APP_URL: BASE_URL, REQUIRE_2FA: 'on' }, timeoutMs: 45_000 });
  });

  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('a password account without a second factor can use nothing until it has enrolled, then lands where it was going', async ({
    page,
  }) => {
    const linkFile = path.join(dataDir, 'setup-link.txt');
    await expect.poll(() => existsSync(linkFile), { timeout: 15_000 }).toBe(true);
    const token = /token=([A-Za-z0-9_-]+)/.exec(readFileSync(linkFile, 'utf8'))?.[1];
    await page.goto(`/setup?token=${token}`);
    await page.getByLabel('Your name').fill(ADMIN.name);
    await page.getByLabel('E-mail address').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Repeat the password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create the administrator' }).click();

    // Every page leads to enrolment, remembering where the person was going: first, an
    // administrator's start page, the queue.
    await expect(page).toHaveURL(`${BASE_URL}/account/two-factor?next=%2Fqueue`);
    await expect(page.getByText('Set up two-factor authentication to continue')).toBeVisible();
    await page.goto('/audit');
    await expect(page).toHaveURL(`${BASE_URL}/account/two-factor?next=%2Faudit`);
    await expect(page.getByText('Set up two-factor authentication to continue')).toBeVisible();
    const staff = await page.request.get('/staff', { maxRedirects: 0 });
    expect(staff.status()).toBe(307);
    expect(staff.headers().location).toMatch(/\/account\/two-factor\?next=%2Fstaff$/);
    // Route handlers refuse too, not only pages.
    const api = await page.request.get('/api/verifications/some-id');
    expect(api.status()).toBe(403);
    await expectNoSeriousViolations(page, 'required enrolment');

    await finishEnrolmentOnPage(page, await startEnrolmentOnPage(page, ADMIN.password));
    await page.getByRole('link', { name: 'I have saved my backup codes, continue' }).click();
    await expect(page).toHaveURL(`${BASE_URL}/audit`);
    // It cannot be turned off while required.
    await page.goto('/account/two-factor');
    await expect(page.getByText('Your organisation requires it, so it cannot be turned off.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Turn off two-factor authentication' })).toHaveCount(0);
    expect((await page.request.get('/staff', { maxRedirects: 0 })).status()).toBe(200);
  });
});
