// Live status: a staff member keeps a detail page open while the person acts on the sandbox's
// page (or the link runs out); the page shows the outcome within 2 s, without a reload.
import { rmSync } from 'node:fs';
import { type APIRequest, expect, type Page, test } from '@playwright/test';
import { createStaffUsers } from './kit/cli.mjs';
import { newDataDir } from './support/data-dirs';
import { uniqueName } from './support/fixtures';
import { type NextServer, startNextServer } from './support/next-server';
import { answerAsPerson, cookieHeaderOf, createOverHttp, signInOverHttp, textOf } from './support/over-http';
import { portFor } from './support/ports';
import { seededAccount } from './support/staff';

// The change must arrive without a reload; how fast it arrives is the benchmark's figure (live
// latency), so this only bounds the wait, generously enough for a loaded machine.
const LIVE_BUDGET_MS = 10_000;

/**
 * Creates a shareable-link request as the signed-in staff member of `page`, over HTTP through the
 * create action (the create form is other specs' subject); returns its id, link and name.
 */
async function createSharedRequest(page: Page, baseUrl: string) {
  const name = uniqueName('Live Person');
  const { id, link } = await createOverHttp(page.request, baseUrl, { name, shareableLink: true });
  return { id, link: link!, name };
}

/** Opens the detail page and marks the document, so a reload (which would drop the mark) is noticed. */
async function watchDetail(page: Page, id: string) {
  await page.goto(`/verifications/${id}`);
  await expect(page.getByTestId('status')).toContainText('Pending');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
}

async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

/** The shared server's address (the project's baseURL). */
const baseUrl = () => test.info().project.use.baseURL!;

test.describe('the detail page follows the verification live', () => {
  // The person answers over HTTP, as their page's form posts it (that page is other specs' subject):
  // what is watched here is the staff member's open page.
  test('completed by the person: status and identified name appear without a reload', async ({ page, playwright }) => {
    const { id, link, name } = await createSharedRequest(page, baseUrl());
    await watchDetail(page, id);

    const clicked = Date.now();
    await answerAsPerson(playwright.request, baseUrl(), link, {
      action: 'completeVerificationAction',
      method: 'passport',
      identifiedName: `${name} Jr`,
    });

    await expect(page.getByTestId('status')).toContainText('Completed', { timeout: LIVE_BUDGET_MS });
    test.info().annotations.push({ type: 'latency', description: `${Date.now() - clicked} ms from the answer to screen` });
    const details = page.locator('dl').first();
    await expect(details).toContainText(`${name} Jr`);
    await expect(details).toContainText('Passport');
    await expectNoReload(page);

    // The register followed too, with the names side by side and the difference flagged.
    const register = await (await page.request.get(`/?q=${encodeURIComponent(name)}`)).text();
    const rows = [...register.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) => textOf(row!)).filter((row) => row.includes(id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('Completed');
    expect(rows[0]).toContain('Name differs');
  });

  test('failed by the person: status and reason appear without a reload', async ({ page, playwright }) => {
    const { id, link } = await createSharedRequest(page, baseUrl());
    await watchDetail(page, id);

    await answerAsPerson(playwright.request, baseUrl(), link, { action: 'failVerificationAction', reason: 'document_expired' });

    await expect(page.getByTestId('status')).toContainText('Failed', { timeout: LIVE_BUDGET_MS });
    await expect(page.locator('dl').first()).toContainText('Document expired');
    await expectNoReload(page);

    // The link is used up: opening it again changes nothing and says so.
    const again = await page.request.get(link, { maxRedirects: 0 });
    const html = await again.text();
    expect(html).toMatch(/The verification has failed|This verification is closed/);
    expect(html).not.toContain('Complete with a passport');
  });
});

test.describe('a link that runs out', () => {
  let server: NextServer;
  let dataDir: string;
  const operator = { email: 'olga.expiry@example.com', password: 'operator-password-456', name: 'Olga Expiry' };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    dataDir = newDataDir('expiry');
    createStaffUsers(dataDir, [{ ...operator, role: 'operator' }]);
    server = await startNextServer({
      port: portFor(30),
      dataDir,
      env: {
        APP_URL: `http://localhost:${portFor(30)}`,
        // Links of the sandbox company last 4 s here, and the sweeper looks every 200 ms.
        SANDBOX_TOKEN_VALIDITY_SECONDS: '4',
        SANDBOX_SWEEP_INTERVAL_MS: '200',
      },
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('expired: the open detail page shows it within 2 s of the link running out', async ({ browser, playwright }) => {
    const session = await signInOverHttp(playwright.request, server.url, operator);
    const context = await browser.newContext({ baseURL: server.url, storageState: await session.storageState() });
    await session.dispose();
    const page = await context.newPage();

    const { id } = await createSharedRequest(page, server.url);
    await watchDetail(page, id);
    const expiresAt = await page.locator('dl').first().locator('time').nth(0).getAttribute('datetime');
    expect(expiresAt).toBeTruthy();
    const msLeft = new Date(expiresAt!).getTime() - Date.now();
    await expect(page.getByTestId('status')).toContainText('Expired', { timeout: Math.max(msLeft, 0) + LIVE_BUDGET_MS });
    await expectNoReload(page);
    await context.close();
  });
});

test.describe("a signed-in person's share of the service and of the server", () => {
  // Accounts of their own on the shared server (one pair per attempt): these tests use up one
  // person's read quota and fill their stream slots, which would hold up every other spec acting
  // as the shared server's operator.
  const reader = () => seededAccount('liveReader', test.info().retry);
  const other = () => seededAccount('liveOther', test.info().retry);
  const READ_LIMIT = 120;
  const STREAMS_PER_STAFF_MEMBER = 10;

  /** Signed in over HTTP (a session of their own): its request context and its cookie header. */
  async function signedIn(request: APIRequest, who: { email: string; password: string }) {
    const api = await signInOverHttp(request, baseUrl(), who);
    return { api, cookie: await cookieHeaderOf(api) };
  }

  test(`a read past ${READ_LIMIT} in a minute is refused 429; another person reads on, and the open page says to wait`, async ({
    browser,
    playwright,
  }) => {
    const rita = await signedIn(playwright.request, reader());
    const name = uniqueName('Live Person');
    // Created over HTTP, so no page has read the record yet: every read is Rita's own.
    const { id } = await createOverHttp(rita.api, baseUrl(), { name, shareableLink: true });
    for (let i = 0; i < READ_LIMIT; i += 1) {
      const response = await rita.api.get(`/api/verifications/${id}`);
      expect(response.status(), `read ${i + 1}`).toBe(200);
    }
    const refused = await rita.api.get(`/api/verifications/${id}`);
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).error).toMatch(/^Too many refreshes: .* Wait \d+ seconds?, then refresh again\.$/);

    const oscar = await signedIn(playwright.request, other());
    expect((await oscar.api.get(`/api/verifications/${id}`)).status()).toBe(200);
    await oscar.api.dispose();

    // The detail page still renders; its refresh is refused, and it says so over the record it has.
    const context = await browser.newContext({ baseURL: baseUrl(), storageState: await rita.api.storageState() });
    await rita.api.dispose();
    const page = await context.newPage();
    await page.goto(`/verifications/${id}`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Refreshing is paused for a moment' });
    await expect(notice).toContainText(/Wait \d+ seconds?, then refresh again\./);
    await expect(page.getByTestId('status')).toContainText('Pending');
    await context.close();
  });

  test(`a person's ${STREAMS_PER_STAFF_MEMBER + 1}th live stream is refused 429; another person streams on; a closed stream frees its place`, async ({
    browser,
    playwright,
  }) => {
    const oscar = await signedIn(playwright.request, other());
    const context = await browser.newContext({ baseURL: baseUrl(), storageState: await oscar.api.storageState() });
    await oscar.api.dispose();
    const page = await context.newPage();
    await page.goto('/');
    // Oscar's tab holds one stream of his session itself; plain requests open the others.
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'live');
    // The responses are kept, not only their abort controllers: Node's fetch cancels the body of
    // a response that is garbage-collected unread, which would close a stream behind the test's back.
    const streams: { abort: AbortController; response: Response }[] = [];
    const openStream = async (cookie: string) => {
      const abort = new AbortController();
      const response = await fetch(`${baseUrl()}/api/events`, { headers: { cookie, accept: 'text/event-stream' }, signal: abort.signal });
      if (response.status === 200) streams.push({ abort, response });
      return response;
    };
    try {
      for (let i = 1; i < STREAMS_PER_STAFF_MEMBER; i += 1) expect((await openStream(oscar.cookie)).status, `stream ${i + 1}`).toBe(200);
      const refused = await openStream(oscar.cookie);
      expect(refused.status).toBe(429);
      expect((await refused.json()).error).toContain(`already open in ${STREAMS_PER_STAFF_MEMBER} tabs of your account`);
      await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'live');

      // Another person's stream is let in (over HTTP, as the tab's EventSource asks for it), then closed.
      const rita = await signedIn(playwright.request, reader());
      const ritaStream = await openStream(rita.cookie);
      expect(ritaStream.status, "another person's stream").toBe(200);
      streams.pop()!.abort.abort();
      await rita.api.dispose();

      // One of Oscar's connections goes away: the server notices, frees its place, and lets a new one in.
      streams.shift()!.abort.abort();
      await expect
        .poll(async () => {
          const response = await openStream(oscar.cookie);
          if (response.status !== 200) await response.body?.cancel();
          return response.status;
        })
        .toBe(200);
    } finally {
      for (const { abort } of streams) abort.abort();
      await context.close();
    }
  });
});
