// Invitations in the browser: an administrator adds a colleague and copies the one-time link;
// the colleague opens it in a browser of their own, sets a password and lands on their first
// page, signed in with the role the administrator chose. A used link, a voided one, an odd one
// and (on a server of this spec's own, on PostgreSQL, where the test can move time) an expired
// one each say so plainly; a new link voids the older one; axe-core checks the page.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { startPostgresServer } from '../test/support/postgres-server';
import { runCli } from './kit/cli.mjs';
import { expectNoSeriousViolations } from './support/accessibility';
import canaries from './support/canaries.json' with { type: 'json' };
import { uniqueName } from './support/fixtures';
import { acceptInvitationIn, type Colleague, inviteOnStaffPage } from './support/invitations';
import { type NextServer, startNextServer } from './support/next-server';
import { portFor } from './support/ports';
import { storageStateOf } from './support/staff';

const NO_SESSION = { cookies: [], origins: [] };
const PASSWORD = 'seven quiet lanterns by the harbour';

const newColleague = (role: Colleague['role'] = 'operator'): Colleague => {
  const name = uniqueName('Ines Invited');
  return { name, email: `ines.${name.slice(-6)}@example.com`, role };
};

async function freshPage(browser: Browser, baseURL?: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, storageState: NO_SESSION });
  return context.newPage();
}

/** The row of the staff table that shows this e-mail address. */
const staffRow = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });

test.describe('invitations on the shared server', () => {
  test('from "add colleague" to their first page: copy the link, set a password, signed in with the chosen role', async ({
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
    await inviteOnStaffPage(admin, colleague);
    // No password anywhere on the page: the account has none until the colleague sets it.
    await expect(admin.getByTestId('generated-password')).toHaveCount(0);
    await admin.getByRole('button', { name: `Copy link to invite ${colleague.email}` }).click();
    await expect(admin.getByRole('button', { name: 'Link copied' })).toBeVisible();
    const link = await admin.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${baseURL}/invitation/[A-Za-z0-9_-]{43}$`));
    await admin.reload();
    await expect(staffRow(admin, colleague.email).getByTestId('invitation-state')).toContainText('Invited — link expires');

    const own = await freshPage(browser, baseURL);
    await own.goto(link);
    await expect(own.getByRole('heading', { name: `Welcome, ${colleague.name}. Set your password` })).toBeVisible();
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

    await acceptInvitationIn(own, link, colleague, PASSWORD);
    const header = own.getByRole('banner');
    await expect(header).toContainText('Viewer');
    // A viewer: no way to create a request.
    await own.goto('/verifications/new');
    await expect(own.getByRole('heading', { name: 'New verification request' })).toHaveCount(0);

    // The password works for a normal sign-in in yet another browser.
    const later = await freshPage(browser, baseURL);
    await later.goto('/sign-in');
    await later.getByLabel('E-mail address').fill(colleague.email);
    await later.getByLabel('Password').fill(PASSWORD);
    await later.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(later.getByTestId('signed-in-as')).toHaveText(colleague.name);

    // The staff list no longer shows an invitation, nor offers a new link.
    await admin.reload();
    await expect(staffRow(admin, colleague.email).getByTestId('invitation-state')).toHaveCount(0);
    await expect(staffRow(admin, colleague.email).getByRole('button', { name: /New invitation link/ })).toHaveCount(0);
    await adminContext.close();
  });

  test('works without JavaScript: a refusal shows on the page, then the password is set and home opens', async ({ browser, baseURL }) => {
    const colleague = newColleague();
    const admin = await (await browser.newContext({ baseURL, storageState: storageStateOf('admin') })).newPage();
    const link = await inviteOnStaffPage(admin, colleague);
    const plain = await (await browser.newContext({ baseURL, storageState: NO_SESSION, javaScriptEnabled: false })).newPage();
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
    expect(new URL(plain.url()).pathname).toBe('/');
  });

  test('a used link says so and leads to sign-in; a second use sets nothing', async ({ browser, baseURL }) => {
    const colleague = newColleague();
    const admin = await (await browser.newContext({ baseURL, storageState: storageStateOf('admin') })).newPage();
    const link = await inviteOnStaffPage(admin, colleague);
    // Opened twice before either is submitted: the second submission loses.
    const first = await freshPage(browser, baseURL);
    const second = await freshPage(browser, baseURL);
    await second.goto(link);
    await acceptInvitationIn(first, link, colleague, PASSWORD);
    await second.getByLabel('New password').fill('an entirely different passphrase');
    await second.getByLabel('Repeat the password').fill('an entirely different passphrase');
    await second.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(second.locator('form').getByRole('alert')).toContainText('This invitation was already used. Sign in with your password.');
    await expect(second.getByTestId('signed-in-as')).toHaveCount(0);

    const again = await freshPage(browser, baseURL);
    await again.goto(link);
    await expect(again.getByRole('heading', { name: 'Invitation already used' })).toBeVisible();
    await expect(again.getByText('This invitation was already used.')).toBeVisible();
    await expectNoSeriousViolations(again, 'used invitation');
    await again.getByRole('link', { name: 'Sign in' }).click();
    await expect(again).toHaveURL(/\/sign-in$/);
  });

  test('a new invitation voids the older link', async ({ browser, baseURL }) => {
    const colleague = newColleague();
    const admin = await (await browser.newContext({ baseURL, storageState: storageStateOf('admin') })).newPage();
    const oldLink = await inviteOnStaffPage(admin, colleague);
    await admin.reload();
    const row = staffRow(admin, colleague.email);
    await row.getByRole('button', { name: `New invitation link for ${colleague.name}` }).click();
    await expect(row.getByRole('status').filter({ hasText: 'Send this link' })).toContainText(
      `Send this link to ${colleague.email} yourself; it works once, until`,
    );
    const newLink = await row.getByTestId('invitation-link').inputValue();
    expect(newLink).not.toBe(oldLink);

    const own = await freshPage(browser, baseURL);
    await own.goto(oldLink);
    await expect(own.getByRole('heading', { name: 'Invitation not valid' })).toBeVisible();
    await expect(own.getByText('This invitation link is not valid.')).toBeVisible();
    await expect(own.getByLabel('New password')).toHaveCount(0);
    await acceptInvitationIn(own, newLink, colleague, PASSWORD);
  });

  test('any token shape gets a plain "not valid" page, never an error', async ({ browser, baseURL }) => {
    const page = await freshPage(browser, baseURL);
    for (const token of [
      'x',
      'A'.repeat(43),
      'a'.repeat(3000),
      '%E2%82%AC%00%20',
      "'%3Bdrop%20table",
      '..%2F..%2Fsign-in',
      '%F0%9F%98%80',
    ]) {
      const response = await page.goto(`/invitation/${token}`);
      expect({ token, status: response?.status() }).toEqual({ token, status: 200 });
      await expect(page.getByText('This invitation link is not valid.')).toBeVisible();
    }
  });

  test('the invitation page passes axe-core and sends its path in no Referer', async ({ browser, baseURL }) => {
    const colleague = newColleague();
    const admin = await (await browser.newContext({ baseURL, storageState: storageStateOf('admin') })).newPage();
    const link = await inviteOnStaffPage(admin, colleague);
    await expectNoSeriousViolations(admin, 'staff page with an invitation link');

    const own = await freshPage(browser, baseURL);
    const referers: string[] = [];
    own.on('request', (request) => {
      const referer = request.headers().referer;
      if (referer) referers.push(referer);
    });
    await own.goto(link);
    await expect(own.getByRole('heading', { name: `Welcome, ${colleague.name}. Set your password` })).toBeVisible();
    await expectNoSeriousViolations(own, 'invitation page');
    await own.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(own.getByText('Use at least 12 characters.')).toBeVisible();
    await expectNoSeriousViolations(own, 'invitation page with errors');
    await own.goto('/invitation/not-a-token');
    await expectNoSeriousViolations(own, 'invalid invitation');
    expect(referers.filter((referer) => referer.includes('/invitation/'))).toEqual([]);
  });
});

test.describe('an expired invitation (own server on PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof startPostgresServer>>;
  let server: NextServer;
  let root: string;
  const admin = { email: 'erin.admin@example.com', name: 'Erin Admin', password: 'erin admin long password' };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    database = await startPostgresServer();
    root = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-invitations-'));
    const env = { DATABASE_URL: database.url, BETTER_AUTH_SECRET: canaries.BETTER_AUTH_SECRET };
    runCli('lib/staff/cli.ts', ['create', '--email', admin.email, '--role', 'admin', '--name', admin.name, '--password-stdin'], {
      dataDir: path.join(root, 'cli'),
      env,
      input: admin.password,
    });
    // No sandbox on a shared store without its CLI's provisioning: "the service" is a closed port,
    // which nothing here calls.
    server = await startNextServer({
      port: portFor(130),
      dataDir: path.join(root, 'server'),
      env: { ...env, VERIFICATION_API_URL: 'http://127.0.0.1:9', VERIFICATION_API_KEY: 'not-used-by-this-test' },
      timeoutMs: 120_000,
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await database?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test('says when it expired and to ask for a new one; the staff list says so; a new link works', async ({ browser }) => {
    const baseURL = server.url;
    const adminPage = await freshPage(browser, baseURL);
    await adminPage.goto('/sign-in');
    await adminPage.getByLabel('E-mail address').fill(admin.email);
    await adminPage.getByLabel('Password').fill(admin.password);
    await adminPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(adminPage.getByTestId('signed-in-as')).toHaveText(admin.name);
    const colleague = newColleague();
    const link = await inviteOnStaffPage(adminPage, colleague);

    // Time passes: the invitation's end moves into the past, in the shared database.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const moved = await client.query(
        `update staff_invitations set expires_at = timestamptz '2026-01-02 09:30:00+00'
           where user_id = (select id from staff_users where email = $1)`,
        [colleague.email],
      );
      expect(moved.rowCount).toBe(1);
    } finally {
      await client.end();
    }

    const own = await freshPage(browser, baseURL);
    await own.goto(link);
    await expect(own.getByRole('heading', { name: 'Invitation expired' })).toBeVisible();
    await expect(own.getByText(/^This invitation expired on .*2026.*\. Ask an administrator for a new one\.$/)).toBeVisible();
    await expect(own.getByLabel('New password')).toHaveCount(0);
    await expectNoSeriousViolations(own, 'expired invitation');

    await adminPage.goto('/staff');
    const row = staffRow(adminPage, colleague.email);
    await expect(row.getByTestId('invitation-state')).toHaveText('Invitation expired — issue a new link');
    await row.getByRole('button', { name: `New invitation link for ${colleague.name}` }).click();
    const newLink = await row.getByTestId('invitation-link').inputValue();
    await acceptInvitationIn(own, newLink, colleague, PASSWORD);
  });
});
