// Upstream faults (docs/quality.md): whatever the verification service does wrong — errors, gateway
// pages, garbage bodies, rate limits, dropped connections, silence — staff get a specific message
// in the dashboard's own words, keep what they typed, never see internals or the upstream's body,
// and a create is never sent twice. One `next start` is pointed at a stand-in whose behaviour is
// switched between tests, so every fault is checked against the real production build.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { createStaffUser } from './kit/cli.mjs';
import { type FaultMode, type FaultUpstream, startFaultUpstream, UPSTREAM_TEXT } from './support/fault-upstream';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { type NextServer, startNextServer } from './support/next-server';
import { portFor } from './support/ports';
import { STAFF } from './support/staff';

const PORT = portFor(41);
// Short, so 'hang' costs seconds (three read attempts plus backoff stay well under 10 s).
const TIMEOUT_MS = 1_500;
const SIGNED_OUT = { cookies: [], origins: [] };
const PURPOSE = 'Processing a GDPR request';

const MAY_HAVE_BEEN_CREATED = /may have been created anyway/;

interface Expected {
  /** data-problem of the read page: the client's error kind. */
  kind: 'unavailable' | 'timeout' | 'protocol';
  title: string;
  /** What the create alert must say beyond the title. */
  createMessage: RegExp;
  /** Upper bound of GETs for one page view: 3 where the client retries, else exactly 1. */
  readAttempts: { exactly: number } | { atMost: number };
}

const UNAVAILABLE: Omit<Expected, 'readAttempts'> = {
  kind: 'unavailable',
  title: 'Service unavailable',
  createMessage: /unavailable right now\. Try again in a minute/,
};
const PROTOCOL: Omit<Expected, 'readAttempts'> = {
  kind: 'protocol',
  title: 'Unexpected answer',
  createMessage: MAY_HAVE_BEEN_CREATED,
};

// The client retries reads only for gateway-type statuses and timeouts (lib/verification-service
// client.ts); a 500 is the service's own bug and a 429 asks us to back off.
const FAULTS: Record<Exclude<FaultMode, 'ok'>, Expected> = {
  '500-json': { ...UNAVAILABLE, readAttempts: { exactly: 1 } },
  '502-html': { ...UNAVAILABLE, readAttempts: { atMost: 3 } },
  '503-html': { ...UNAVAILABLE, readAttempts: { atMost: 3 } },
  '429': {
    kind: 'unavailable',
    title: 'Service busy',
    // Retry-After: 30 is turned into advice rather than ignored.
    createMessage: /too many requests\. Try again in about 30 seconds/,
    readAttempts: { exactly: 1 },
  },
  '200-not-json': { ...PROTOCOL, readAttempts: { exactly: 1 } },
  '200-empty': { ...PROTOCOL, readAttempts: { exactly: 1 } },
  '200-wrong-shape': { ...PROTOCOL, readAttempts: { exactly: 1 } },
  // A dropped connection has no status, so it is not one of the retried gateway failures;
  // the brief only bounds it, and so does this test.
  reset: { ...UNAVAILABLE, readAttempts: { atMost: 3 } },
  hang: {
    kind: 'timeout',
    title: 'No answer in time',
    // A create whose answer never came may exist upstream: staff must be told to check first.
    createMessage: MAY_HAVE_BEEN_CREATED,
    readAttempts: { atMost: 3 },
  },
};

/** Fails if the page shows a stack trace, internal paths, or anything the upstream sent. */
async function expectNothingLeaked(page: Page) {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/\bat \S+ \(?\S+:\d+:\d+\)?/); // a stack frame
  for (const internal of ['Error:', '/work/', 'node_modules', '.next/server']) expect(text).not.toContain(internal);
  // The whole HTML, including the RSC payload a page carries in scripts, not only visible text.
  const html = await page.content();
  for (const upstream of [
    UPSTREAM_TEXT.jsonError,
    UPSTREAM_TEXT.htmlMarker,
    UPSTREAM_TEXT.notJson,
    UPSTREAM_TEXT.wrongShapeField,
    'nginx',
  ]) {
    expect(html).not.toContain(upstream);
  }
}

async function signIn(page: Page, staff: { email: string; password: string; name: string }) {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address').fill(staff.email);
  await page.getByLabel('Password').fill(staff.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(staff.name);
}

test.describe('upstream faults reach staff as clear, safe messages', () => {
  test.describe.configure({ mode: 'serial' });

  let upstream: FaultUpstream;
  let server: NextServer | undefined;
  let dataDir: string;
  let context: BrowserContext;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    upstream = await startFaultUpstream();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-faults-'));
    // The CLI refuses while a server holds the directory: the account first, then the server.
    createStaffUser(dataDir, { ...STAFF.operator, role: 'operator' });
    createStaffUser(dataDir, { ...STAFF.admin, role: 'admin' });
    server = await startNextServer({
      port: PORT,
      dataDir,
      env: {
        APP_URL: `http://localhost:${PORT}`,
        VERIFICATION_API_URL: upstream.baseUrl,
        VERIFICATION_API_KEY: 'test-key',
        VERIFICATION_API_TIMEOUT_MS: String(TIMEOUT_MS),
        // The sandbox's pages (/outbox, /webhooks) are on, and they too read from the stand-in
        // over HTTP, as from a sandbox served elsewhere; the dashboard never talks to the
        // embedded one, since VERIFICATION_API_URL points at the stand-in.
        SANDBOX: 'on',
      },
    });
    // Not the project's stored operator session: its cookies belong to the shared server
    // (cookies ignore ports), whose database this server does not share.
    context = await browser.newContext({ baseURL: server.url, storageState: SIGNED_OUT });
    page = await context.newPage();
    await signIn(page, STAFF.operator);
  });

  test.afterAll(async () => {
    await context?.close();
    await server?.stop();
    await upstream?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook asks for from this pattern.
  test.afterEach(async ({}, testInfo) => {
    // The server's log is the only place a server-side failure shows; attach it when one fails.
    if (testInfo.status !== testInfo.expectedStatus && server) {
      await testInfo.attach('next-server.log', { body: server.output(), contentType: 'text/plain' });
    }
  });

  for (const [mode, expected] of Object.entries(FAULTS) as [Exclude<FaultMode, 'ok'>, Expected][]) {
    test(`${mode}: a create fails once, with a specific message and the form kept`, async () => {
      const name = uniqueName('Fault Person');
      const email = `fault.${Math.random().toString(36).slice(2, 8)}@example.com`;
      upstream.setMode('ok');
      await openCreateForm(page);
      await fillBasics(page, { name, email, purpose: PURPOSE });
      upstream.setMode(mode);
      upstream.resetCounts();
      await submitCreate(page);

      const alert = page.locator('form').getByRole('alert');
      await expect(alert).toBeVisible({ timeout: 5_000 });
      await expect(alert).toContainText(expected.title);
      await expect(alert).toContainText(expected.createMessage);
      await expectNothingLeaked(page);

      // What was typed survives the failure, so sending again costs nothing.
      await expect(page.getByLabel('Full name')).toHaveValue(name);
      await expect(page.getByLabel('E-mail address')).toHaveValue(email);
      await expect(page.getByRole('radio', { name: PURPOSE })).toBeChecked();

      // Never retried: a lost answer may hide a created request, and a second POST would notify
      // the person twice. A short pause lets a late retry show up before counting.
      await page.waitForTimeout(300);
      expect(upstream.count('POST'), 'POSTs the upstream received for one submit').toBe(1);
    });

    test(`${mode}: a verification page shows a '${expected.kind}' problem, not a crash`, async () => {
      upstream.setMode(mode);
      upstream.resetCounts();
      const id = randomUUID();
      await page.goto(`/verifications/${id}`);

      const problem = page.locator('[data-problem]');
      await expect(problem).toHaveAttribute('data-problem', expected.kind, { timeout: 10_000 });
      await expect(problem.getByRole('heading', { level: 1 })).toHaveText(expected.title);
      await expect(problem.getByRole('link', { name: 'Try again' })).toBeVisible();
      await expect(problem).toContainText(id);
      await expectNothingLeaked(page);

      const gets = upstream.count('GET');
      if ('exactly' in expected.readAttempts) {
        expect(gets, 'GETs for one page view (not a retried failure)').toBe(expected.readAttempts.exactly);
      } else {
        expect(gets, 'GETs for one page view').toBeGreaterThanOrEqual(1);
        expect(gets, 'GETs for one page view (one try, at most two retries)').toBeLessThanOrEqual(expected.readAttempts.atMost);
      }
    });
  }

  // The detail page has no route skeleton (React would hold a fast page back 300 ms behind one):
  // while a slow read is under way, the clicked link shows it is working and the register stays.
  test('a slow read: the clicked register link shows it is pending, then the page it led to', async () => {
    upstream.setMode('ok');
    const name = uniqueName('Slow Person');
    await openCreateForm(page);
    await fillBasics(page, { name, email: `slow.${Math.random().toString(36).slice(2, 8)}@example.com`, purpose: PURPOSE });
    await submitCreate(page);
    const id = await createdId(page);
    await page.goto('/');
    const link = page.getByRole('link', { name });
    await expect(link.getByTestId('link-pending')).toHaveCount(0);

    upstream.setMode('hang');
    await link.click();
    await expect(link.getByTestId('link-pending')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Verification requests' })).toBeVisible();

    const problem = page.locator('[data-problem]');
    await expect(problem).toHaveAttribute('data-problem', 'timeout', { timeout: 10_000 });
    await expect(page).toHaveURL(new RegExp(`/verifications/${id}$`));
    await expect(page.getByTestId('link-pending')).toHaveCount(0);
  });

  test('a slow lookup: the Look up button shows it is busy until the page it led to appears', async () => {
    upstream.setMode('hang');
    const id = randomUUID();
    await page.goto('/');
    await page.getByLabel('Look up a verification by id').fill(id);
    const button = page.getByRole('button', { name: 'Look up' });
    await expect(button).not.toHaveAttribute('aria-busy');
    await button.click();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await expect(page).toHaveURL(/\/$/);

    await expect(page.locator('[data-problem]')).toHaveAttribute('data-problem', 'timeout', { timeout: 10_000 });
    await expect(page).toHaveURL(new RegExp(`/verifications/${id}$`));
  });

  // Nothing listens at the service's address: the connection is refused before any request is
  // sent, so staff are told the request was certainly not created and what to check.
  test('connection refused: a create fails with "cannot reach the service", the form kept, nothing retried', async () => {
    const name = uniqueName('Refused Person');
    const email = `refused.${Math.random().toString(36).slice(2, 8)}@example.com`;
    upstream.setMode('ok');
    await openCreateForm(page);
    await fillBasics(page, { name, email, purpose: PURPOSE });
    await upstream.refuseConnections();
    try {
      await submitCreate(page);
      const alert = page.locator('form').getByRole('alert');
      await expect(alert).toBeVisible({ timeout: 5_000 });
      await expect(alert).toContainText('Cannot reach the service');
      await expect(alert).toContainText('The request was not created: the dashboard cannot reach the verification service');
      await expect(alert).toContainText('VERIFICATION_API_URL');
      await expect(alert).not.toContainText('may have been created');
      await expectNothingLeaked(page);
      expect(await page.content()).not.toContain('ECONNREFUSED');
      await expect(page.getByLabel('Full name')).toHaveValue(name);
      await expect(page.getByLabel('E-mail address')).toHaveValue(email);
      await expect(page.getByRole('radio', { name: PURPOSE })).toBeChecked();
    } finally {
      upstream.resetCounts();
      await upstream.acceptConnections();
    }
    // A refused POST cannot be counted, but a retry would come after a backoff: with the service
    // back, none arrives. Then the kept form is sent as is, and creates exactly one request.
    await page.waitForTimeout(1_200);
    expect(upstream.count('POST'), 'POSTs arriving after the refused one').toBe(0);
    await submitCreate(page);
    await createdId(page);
    expect(upstream.count('POST')).toBe(1);
  });

  test('connection refused: a verification page shows "cannot reach the service", not a crash', async () => {
    const id = randomUUID();
    await upstream.refuseConnections();
    try {
      await page.goto(`/verifications/${id}`);
      const problem = page.locator('[data-problem]');
      await expect(problem).toHaveAttribute('data-problem', 'unavailable', { timeout: 10_000 });
      await expect(problem.getByRole('heading', { level: 1 })).toHaveText('Cannot reach the service');
      await expect(problem).toContainText('cannot reach the verification service');
      await expect(problem.getByRole('link', { name: 'Try again' })).toBeVisible();
      await expect(problem).toContainText(id);
      await expectNothingLeaked(page);
      expect(await page.content()).not.toContain('ECONNREFUSED');
    } finally {
      await upstream.acceptConnections();
    }
  });

  test('500-json: the form keeps every value — custom purpose, language, each switch and the phone', async () => {
    const name = uniqueName('Kept Person');
    const email = `kept.${Math.random().toString(36).slice(2, 8)}@example.com`;
    const customPurpose = `Supplier onboarding, batch ${Math.random().toString(36).slice(2, 6)}`;
    const phone = '+32 470 12 34 56';
    const alert = page.locator('form').getByRole('alert');
    const submitButton = page.getByRole('button', { name: 'Create verification request' });
    const switchOf = (label: string) => page.getByRole('switch', { name: label });
    /** Submits into the 500 and waits until the action's answer is on the page. */
    const submitIntoFailure = async (postsBefore: number) => {
      await submitCreate(page);
      await expect.poll(() => upstream.count('POST')).toBe(postsBefore + 1);
      await expect(submitButton).toBeEnabled();
      await expect(alert).toContainText('Service unavailable');
    };
    const expectKept = async (switches: { link: boolean; email: boolean; sms: boolean }) => {
      await expect(page.getByLabel('Full name')).toHaveValue(name);
      await expect(page.getByLabel('E-mail address')).toHaveValue(email);
      await expect(page.getByRole('radio', { name: 'Other…' })).toBeChecked();
      await expect(page.getByRole('textbox', { name: 'Describe the purpose' })).toHaveValue(customPurpose);
      await expect(page.getByLabel('Language')).toHaveValue('nl');
      for (const [label, on] of [
        ['Shareable link', switches.link],
        ['E-mail notification', switches.email],
        ['SMS notification', switches.sms],
      ] as const) {
        if (on) await expect(switchOf(label), label).toBeChecked();
        else await expect(switchOf(label), label).not.toBeChecked();
      }
      await expect(page.getByLabel('Mobile number')).toHaveValue(phone);
    };

    upstream.setMode('ok');
    await openCreateForm(page);
    await fillBasics(page, { name, email, purpose: 'Other…' });
    await page.getByRole('textbox', { name: 'Describe the purpose' }).fill(customPurpose);
    await page.getByLabel('Language').selectOption('nl');
    // Every switch away from its default: e-mail off, SMS on with a number.
    await switchOf('E-mail notification').uncheck();
    await switchOf('SMS notification').check();
    await page.getByLabel('Mobile number').fill(phone);
    upstream.setMode('500-json');
    upstream.resetCounts();

    await submitIntoFailure(0);
    await expectKept({ link: false, email: false, sms: true });

    // Again with the shareable link on (which switches the e-mail notification off with it).
    await switchOf('Shareable link').check();
    await submitIntoFailure(1);
    await expectKept({ link: true, email: false, sms: true });
    await expectNothingLeaked(page);
  });

  test('service down: the lookup shows the problem; register, outbox and webhooks render, not a crash', async ({ browser }) => {
    const adminContext = await browser.newContext({ baseURL: server!.url, storageState: SIGNED_OUT });
    const admin = await adminContext.newPage();
    await signIn(admin, STAFF.admin);
    upstream.setMode('ok');
    await upstream.refuseConnections();
    try {
      // The lookup (no JavaScript needed) goes to the detail page, which reads the service.
      const id = randomUUID();
      const lookup = await page.goto(`/verifications?id=${id}`);
      expect(lookup?.status()).toBeLessThan(500);
      await expect(page).toHaveURL(new RegExp(`/verifications/${id}$`));
      const problem = page.locator('[data-problem]');
      await expect(problem).toHaveAttribute('data-problem', 'unavailable', { timeout: 10_000 });
      await expect(problem.getByRole('heading', { level: 1 })).toHaveText('Cannot reach the service');
      await expectNothingLeaked(page);

      // The register is the dashboard's own database: it does not need the service at all.
      const register = await page.goto('/');
      expect(register?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1, name: 'Verification requests' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: 'Recent requests' })).toBeVisible();
      // (Next's route announcer is an alert too; only the page's own content counts.)
      await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
      await expectNothingLeaked(page);

      // The sandbox pages read the service: their frame renders, with the problem in place of the list.
      for (const [who, path, heading] of [
        [page, '/outbox', 'Sandbox outbox'],
        [admin, '/webhooks', 'Sandbox webhooks'],
      ] as const) {
        const response = await who.goto(path);
        expect(response?.status(), path).toBe(200);
        await expect(who.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expect(who.getByRole('main').getByRole('alert')).toContainText('Cannot reach the service');
        await expectNothingLeaked(who);
      }
    } finally {
      await upstream.acceptConnections();
    }

    // An error answer instead of silence: the same pages say the service is unavailable.
    upstream.setMode('500-json');
    try {
      for (const [who, path] of [
        [page, '/outbox'],
        [admin, '/webhooks'],
      ] as const) {
        const response = await who.goto(path);
        expect(response?.status(), path).toBe(200);
        await expect(who.getByRole('main').getByRole('alert')).toContainText('Service unavailable');
        await expectNothingLeaked(who);
      }
    } finally {
      upstream.setMode('ok');
      await adminContext.close();
    }
  });

  test('with the service healthy again, the same server creates and shows a request', async () => {
    // Proves the failures above came from the faults, not from a broken setup.
    upstream.setMode('ok');
    await openCreateForm(page);
    await fillBasics(page, { name: uniqueName('Healthy Person'), email: 'healthy@example.com', purpose: PURPOSE });
    upstream.resetCounts();
    await submitCreate(page);
    const id = await createdId(page);
    expect(upstream.count('POST')).toBe(1);

    await page.goto(`/verifications/${id}`);
    await expect(page.locator('main')).toBeVisible();
    await expect(page.locator('[data-problem]')).toHaveCount(0);
    await expect(page.getByText('Someone').first()).toBeVisible();
  });
});
