// The README's first-run story on a server of its own: an empty data directory, the one-time
// setup link in <DATA_DIR>/setup-link.txt, the first administrator, then a first verification
// request. The shared server of the other specs already has staff accounts, so this file starts
// its own `next start` (same production build, embedded sandbox) and stops it afterwards. Its
// output is a pipe, as when a log collector reads it: the link must not be in it. The output is
// read here, not kept for the leak check. What a signed-out visitor gets (redirects, the setup
// link's refusals) is checked over HTTP; the administrator's journey runs in the browser.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { type NextServer, startNextServer } from './kit/server.mjs';
import { createdId, fillBasics, submitCreate, uniqueName } from './support/fixtures';
import { portFor } from './support/ports';

// E2E_PORT + 21…29 are this file's to use.
const PORT = portFor(21);
const BASE_URL = `http://localhost:${PORT}`;
const SETUP_LINK = new RegExp(`^${BASE_URL.replace(/[.]/g, '\\.')}/setup\\?token=([A-Za-z0-9_-]+)\n$`);

const ADMIN = { name: 'Grace Hopper', email: 'grace.hopper@example.com', password: 'first-admin-password-42' };

// Cookies are not scoped by port: without this, the operator's cookie of the shared server
// (the project's default storage state) would be sent to this server too.
test.use({ baseURL: BASE_URL, storageState: { cookies: [], origins: [] } });
// Each step builds on the one before (setup can only happen once).
test.describe.configure({ mode: 'serial' });

let server: NextServer | undefined;
/** Everything the server has printed so far. */
const output = () => server?.output() ?? '';
let dataDir = '';
let setupLinkFile = '';
let setupToken = '';
/** Set once the administrator exists (the used link's test needs them). */
let setupDone = false;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-first-run-'));
  setupLinkFile = path.join(dataDir, 'setup-link.txt');
  // The kit's environment filter: no upstream settings, so the embedded sandbox serves.
  server = await startNextServer({ port: PORT, dataDir, env: { APP_URL: BASE_URL }, timeoutMs: 45_000 });

  // The link is written from instrumentation, by the time the server answers or soon after.
  const deadline = Date.now() + 10_000;
  while (!existsSync(setupLinkFile) || !output().includes(setupLinkFile)) {
    if (Date.now() > deadline) throw new Error(`No setup link file at ${setupLinkFile}. Output so far:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const content = readFileSync(setupLinkFile, 'utf8');
  const match = SETUP_LINK.exec(content);
  if (!match) throw new Error(`The setup link file holds no setup link: ${JSON.stringify(content)}`);
  setupToken = match[1]!;
});

test.afterAll(async () => {
  await server?.stop();
  // After the server let go of the data directory (PGlite holds a lock in it).
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const setupForm = (page: Page) => page.getByRole('button', { name: 'Create the administrator' });

/** A signed-out visitor of this server. */
const visitor = (playwright: { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } }) =>
  playwright.request.newContext({ baseURL: BASE_URL });

/**
 * A page's content (its <main>) shows no form at all: nothing to type into, nothing to submit.
 * The language switcher above it, a form of its own on every page before sign-in, is not counted.
 */
const NO_FORM = /<(form|input|textarea|select)\b/;

/** What a page's HTML shows: its body without the scripts (which carry the React payload). */
const shown = (html: string) => html.slice(html.indexOf('<body')).replace(/<script\b[\s\S]*?<\/script>/g, '');

test('the setup link is in a file only the server user can read, and nowhere in the server output', async () => {
  expect((statSync(setupLinkFile).mode & 0o777).toString(8)).toBe('600');
  // The output (stdout is not a terminal here) says where the link is, without it.
  expect(output()).toContain(`The one-time link that creates the first administrator is in ${setupLinkFile}`);
  expect(output()).not.toContain(setupToken);
  expect(output()).not.toContain('token=');
});

test('before setup: pages lead to sign-in, and /setup needs the token from the file', async ({ playwright }) => {
  const api = await visitor(playwright);
  const home = await api.get('/', { maxRedirects: 0 });
  expect(home.status()).toBe(307);
  expect(home.headers().location).toMatch(/\/sign-in(\?|$)/);
  const signIn = await api.get('/');
  expect(new URL(signIn.url()).pathname).toBe('/sign-in');
  expect(await signIn.text()).toContain('>Sign in</h1>');

  for (const url of ['/setup', `/setup?token=${'x'.repeat(setupToken.length)}`, `/setup?token=${setupToken.slice(0, -1)}`]) {
    const response = await api.get(url);
    expect(response.status(), url).toBe(200);
    const html = shown(await response.text());
    expect(html, url).toContain('This setup link is missing or not valid.');
    expect(html.slice(html.indexOf('<main')), url).not.toMatch(NO_FORM);
  }
  await api.dispose();
});

test('the first administrator: the form checks the password, a valid setup signs them in and removes the link, then they create the first request and cannot demote themself', async ({
  page,
}) => {
  await test.step('the setup form refuses a short or unrepeated password at the field and keeps name and e-mail', async () => {
    await page.goto(`/setup?token=${setupToken}`);
    await expect(page.getByRole('heading', { name: 'Create the first administrator' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'This setup link is missing or not valid.' })).toHaveCount(0);

    const name = page.getByLabel('Your name');
    const email = page.getByLabel('E-mail address');
    const password = page.getByLabel('Password', { exact: true });
    const repeat = page.getByLabel('Repeat the password');

    await name.fill(ADMIN.name);
    await email.fill(ADMIN.email);
    await password.fill('too-short');
    await repeat.fill('too-short');
    await setupForm(page).click();
    await expect(page.locator('#password-error')).toHaveText('Use at least 12 characters.');
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveValue(ADMIN.name);
    await expect(email).toHaveValue(ADMIN.email);

    await password.fill(ADMIN.password);
    await repeat.fill(`${ADMIN.password}-typo`);
    await setupForm(page).click();
    await expect(page.locator('#confirmPassword-error')).toHaveText('The two passwords differ.');
    await expect(repeat).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#password-error')).toHaveText('');
    await expect(name).toHaveValue(ADMIN.name);
    await expect(email).toHaveValue(ADMIN.email);
    // Still on the setup page: nothing was created.
    await expect(page).toHaveURL(/\/setup\?token=/);
  });

  await test.step('a valid setup creates the administrator, signs them in, and the link then is gone', async () => {
    await page.getByLabel('Your name').fill(ADMIN.name);
    await page.getByLabel('E-mail address').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByLabel('Repeat the password').fill(ADMIN.password);
    await setupForm(page).click();

    await expect(page).toHaveURL(`${BASE_URL}/queue`);
    const header = page.getByRole('banner');
    await expect(header.getByTestId('signed-in-as')).toHaveText(ADMIN.name);
    await expect(header).toContainText('Administrator');
    await expect(header.getByRole('link', { name: 'Staff' })).toBeVisible();
    setupDone = true;

    // Its file is gone with it.
    expect(existsSync(setupLinkFile)).toBe(false);
  });

  await test.step('the new administrator creates the first verification request', async () => {
    const person = uniqueName('Katherine Johnson');
    await page.getByRole('banner').getByRole('link', { name: 'New request' }).click();
    await expect(page.getByRole('heading', { name: 'New verification request' })).toBeVisible();
    await fillBasics(page, { name: person, email: 'katherine@example.com' });
    await submitCreate(page);
    const id = await createdId(page);
    await expect(page.getByTestId('creation-result')).toContainText('Verification request created successfully.');

    await page.goto('/');
    const row = page.getByRole('row').filter({ hasText: id });
    await expect(row).toContainText(person);
  });

  // Done here and not on the shared server: if the protection were missing, this would strip
  // the shared administrator of its rights for every other test.
  await test.step('the only administrator cannot disable or demote themself', async () => {
    await page.goto('/staff');
    const me = page.getByRole('row').filter({ hasText: '(you)' });
    await expect(me).toContainText(ADMIN.email);
    await expect(me.getByRole('button', { name: /^Change role/ })).toBeVisible();
    await expect(me.getByRole('button', { name: /^Disable/ })).toHaveCount(0);

    await me.getByLabel(`Role of ${ADMIN.name}`).selectOption('viewer');
    await me.getByRole('button', { name: `Change role of ${ADMIN.name}` }).click();
    await expect(me.getByRole('status')).toHaveText('This is the last active administrator; make someone else an administrator first.');

    await page.reload();
    await expect(page.getByRole('banner')).toContainText('Administrator');
    await expect(page.getByRole('row').filter({ hasText: '(you)' }).getByRole('cell').nth(1)).toHaveText('Administrator');
  });
});

test('the used setup link says so and leads to sign-in, rather than "Page not found"', async ({ page, playwright }) => {
  test.skip(!setupDone, 'needs the administrator created by the previous test');
  // Nothing to do here any more (404), but said plainly, whatever the link.
  const api = await visitor(playwright);
  for (const url of ['/setup', `/setup?token=${'x'.repeat(setupToken.length)}`]) {
    const response = await api.get(url);
    expect(response.status(), url).toBe(404);
    expect(await response.text(), url).toContain('This setup link has already been used');
  }
  await api.dispose();

  // The page as a browser shows it (this 404's content comes in the React payload, not in the
  // HTML), signed out, as whoever finds the old link would be.
  const response = await page.goto(`/setup?token=${setupToken}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Setup is done');
  await expect(page.getByRole('status').filter({ hasText: 'This setup link has already been used — sign in.' })).toBeVisible();
  await expect(page.getByText('Page not found')).toHaveCount(0);
  await expect(setupForm(page)).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${BASE_URL}/sign-in`);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});
