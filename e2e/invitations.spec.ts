// Invitations in the browser: an administrator adds a colleague and copies the one-time link;
// the colleague opens it in a browser of their own, sets a password and lands on their first
// page, signed in with the role the administrator chose. A voided link, a used one and an odd one
// each say so plainly; a new link voids the older one; axe-core checks the pages on the way.
// (An expired link needs a database the test can move time in: e2e/single-sign-on.spec.ts has one.)
import { expect, type Page, test } from '@playwright/test';
import { expectNoSeriousViolations } from './support/accessibility';
import { uniqueName } from './support/fixtures';
import { type Colleague, inviteOnStaffPage, inviteOverHttp, setPasswordHere } from './support/invitations';
import { signInFrom } from './support/sign-in-from';
import { storageStateOf } from './support/staff';

const NO_SESSION = { cookies: [], origins: [] };
const PASSWORD = 'seven quiet lanterns by the harbour';

const newColleague = (role: Colleague['role'] = 'operator'): Colleague => {
  const name = uniqueName('Ines Invited');
  return { name, email: `ines.${name.slice(-6)}@example.com`, role };
};

/** The row of the staff table that shows this e-mail address. */
const staffRow = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });

test.describe('invitations on the shared server', () => {
  test('from "add colleague" to their first page: a link to copy, a newer one voids it, the password is set once and signs them in with the chosen role', async ({
    browser,
    baseURL,
  }) => {
    const colleague = newColleague('viewer');
    const adminContext = await browser.newContext({
      baseURL,
      storageState: storageStateOf('admin'),
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const admin = await adminContext.newPage();
    const row = staffRow(admin, colleague.email);

    const firstLink = await test.step('"add colleague" shows a link to copy and no password', async () => {
      const link = await inviteOnStaffPage(admin, colleague);
      // No password anywhere on the page: the account has none until the colleague sets it.
      await expect(admin.getByTestId('generated-password')).toHaveCount(0);
      await admin.getByRole('button', { name: `Copy link to invite ${colleague.email}` }).click();
      await expect(admin.getByRole('button', { name: 'Link copied' })).toBeVisible();
      expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(link);
      expect(link).toMatch(new RegExp(`^${baseURL}/invitation/[A-Za-z0-9_-]{43}$`));
      await expectNoSeriousViolations(admin, 'staff page with an invitation link');
      await expect(row.getByTestId('invitation-state')).toContainText('Invited — link expires');
      return link;
    });

    const link = await test.step('a new invitation link voids the older one', async () => {
      await row.getByRole('button', { name: `New invitation link for ${colleague.name}` }).click();
      await expect(row.getByRole('status').filter({ hasText: 'Send this link' })).toContainText(
        `Send this link to ${colleague.email} yourself; it works once, until`,
      );
      const newLink = await row.getByTestId('invitation-link').inputValue();
      expect(newLink).not.toBe(firstLink);
      return newLink;
    });

    // The colleague's own browser, which must never send the link's path on in a Referer.
    const ownContext = await browser.newContext({ baseURL, storageState: NO_SESSION });
    const own = await ownContext.newPage();
    const referers: string[] = [];
    own.on('request', (request) => {
      const referer = request.headers().referer;
      if (referer) referers.push(referer);
    });

    await test.step('the voided link says it is not valid', async () => {
      await own.goto(firstLink);
      await expect(own.getByRole('heading', { name: 'Invitation not valid' })).toBeVisible();
      await expect(own.getByText('This invitation link is not valid.')).toBeVisible();
      await expect(own.getByLabel('New password')).toHaveCount(0);
      await expectNoSeriousViolations(own, 'invalid invitation');
    });

    await test.step('the invitation page refuses a short, a common and an unrepeated password at the field', async () => {
      await own.goto(link);
      await expect(own.getByRole('heading', { name: `Welcome, ${colleague.name}. Set your password` })).toBeVisible();
      await expectNoSeriousViolations(own, 'invitation page');
      await own.getByRole('button', { name: 'Set password and sign in' }).click();
      await expect(own.getByText('Use at least 12 characters.')).toBeVisible();
      await expectNoSeriousViolations(own, 'invitation page with errors');
      // A common password is refused by the server, at the field; nothing typed comes back.
      await own.getByLabel('New password').fill('password1234');
      await own.getByLabel('Repeat the password').fill('password1234');
      await own.getByRole('button', { name: 'Set password and sign in' }).click();
      await expect(own.getByText('This password is one of the most common ones')).toBeVisible();
      await expect(own.getByLabel('New password')).toHaveValue('');
      await expect(own.getByLabel('New password')).toHaveAttribute('aria-invalid', 'true');
      // Two different passwords are caught in the browser, with the shared schema.
      await own.getByLabel('New password').fill(PASSWORD);
      await own.getByLabel('Repeat the password').fill(`${PASSWORD}!`);
      await own.getByRole('button', { name: 'Set password and sign in' }).click();
      await expect(own.getByText('The two passwords differ.')).toBeVisible();
    });

    // The same link open in a second browser before the first submits: that submission must lose.
    const secondContext = await browser.newContext({ baseURL, storageState: NO_SESSION });
    const second = await secondContext.newPage();
    await second.goto(link);

    await test.step('the password is set: signed in on home as a viewer, who cannot create requests', async () => {
      await setPasswordHere(own, colleague, PASSWORD);
      await expect(own.getByRole('banner')).toContainText('Viewer');
      const create = await own.request.get('/verifications/new');
      expect(create.status()).toBe(403);
      expect(await create.text()).not.toContain('New verification request</h1>');
    });

    await test.step('a second use sets nothing; the used link says so and leads to sign-in', async () => {
      await second.getByLabel('New password').fill('an entirely different passphrase');
      await second.getByLabel('Repeat the password').fill('an entirely different passphrase');
      await second.getByRole('button', { name: 'Set password and sign in' }).click();
      await expect(second.locator('form').getByRole('alert')).toContainText(
        'This invitation was already used. Sign in with your password.',
      );
      await expect(second.getByTestId('signed-in-as')).toHaveCount(0);

      await second.goto(link);
      await expect(second.getByRole('heading', { name: 'Invitation already used' })).toBeVisible();
      await expect(second.getByText('This invitation was already used.')).toBeVisible();
      await expectNoSeriousViolations(second, 'used invitation');
      await second.getByRole('link', { name: 'Sign in' }).click();
      await expect(second).toHaveURL(/\/sign-in$/);
      await secondContext.close();
    });

    await test.step('the password signs in; the staff list shows no invitation and offers no new link', async () => {
      expect(await signInFrom(baseURL!, { localAddress: '127.0.0.1', email: colleague.email, password: PASSWORD })).toEqual({
        outcome: 'signed-in',
      });
      await admin.reload();
      await expect(row).toContainText(colleague.name);
      await expect(row.getByTestId('invitation-state')).toHaveCount(0);
      await expect(row.getByRole('button', { name: /New invitation link/ })).toHaveCount(0);
    });

    expect(referers.length).toBeGreaterThan(0);
    expect(referers.filter((referer) => referer.includes('/invitation/'))).toEqual([]);
    await ownContext.close();
    await adminContext.close();
  });

  test('works without JavaScript: a refusal shows on the page, then the password is set and home opens', async ({
    browser,
    baseURL,
    playwright,
  }) => {
    const colleague = newColleague();
    const adminApi = await playwright.request.newContext({ baseURL, storageState: storageStateOf('admin') });
    const link = await inviteOverHttp(adminApi, baseURL!, colleague);
    await adminApi.dispose();
    const plainContext = await browser.newContext({ baseURL, storageState: NO_SESSION, javaScriptEnabled: false });
    const plain = await plainContext.newPage();
    await plain.goto(link);
    await plain.getByLabel('New password').fill('password1234');
    await plain.getByLabel('Repeat the password').fill('password1234');
    await plain.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(plain.getByText('This password is one of the most common ones')).toBeVisible();
    await expect(plain.getByLabel('New password')).toHaveValue('');
    await plain.getByLabel('New password').fill(PASSWORD);
    await plain.getByLabel('Repeat the password').fill(PASSWORD);
    await plain.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(plain.getByTestId('signed-in-as')).toHaveText(colleague.name);
    expect(new URL(plain.url()).pathname).toBe(colleague.role === 'viewer' ? '/' : '/queue');
    await plainContext.close();
  });

  test('any token shape gets a plain "not valid" page, never an error', async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    for (const token of [
      'x',
      'A'.repeat(43),
      'a'.repeat(3000),
      '%E2%82%AC%00%20',
      "'%3Bdrop%20table",
      '..%2F..%2Fsign-in',
      '%F0%9F%98%80',
    ]) {
      const response = await api.get(`/invitation/${token}`);
      expect({ token, status: response.status(), url: response.url() }).toEqual({
        token,
        status: 200,
        url: expect.stringContaining('/invitation/'),
      });
      expect(await response.text(), token).toContain('This invitation link is not valid.');
    }
    await api.dispose();
  });
});
