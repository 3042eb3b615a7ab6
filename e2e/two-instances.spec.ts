// Two instances on one PostgreSQL act as one (docs/quality.md, "Several instances"): the
// deployment of e2e/support/two-instances.ts — instances A and B of the same build, one database,
// one round-robin proxy in front — started once for this file. Each test pins requests to A or B
// (the proxy's `x-vd-instance` header, or a pinned path) where the proof needs to know which
// instance did what. The tests that kill an instance or stop the database come last and leave the
// deployment serving again. Only what needs two processes of the build and a browser is here:
// duplicate deliveries, the listener's gap and the B→A latency are proven on two database pools
// by lib/webhook-receiver/cross-instance.test.ts and lib/live/cross-instance.test.ts, one sweep
// at a time by lib/platform/periodic-jobs.test.ts.
import { createHash, createPublicKey, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Browser, type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { verifyPack } from '../lib/audit/chain/verify-pack';
import { expectNoSeriousViolations } from './support/accessibility';
import { serverLogsDir } from './support/captures';
import { disableThroughDialog } from './support/disable-staff';
import { frameData, openEventStream } from './support/event-stream';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { portFor } from './support/ports';
import { INSTANCE_HEADER } from './support/round-robin-proxy';
import { listServerActions, multipartActionCall, replayAction } from './support/server-actions';
import { type InstanceName, type Staff, startTwoInstances, type TwoInstances } from './support/two-instances';

const ADMIN: Staff = { email: 'alma.admin@example.com', password: 'two-admin-password-1', name: 'Alma Admin', role: 'admin' };
const OPERATOR: Staff = {
  email: 'omar.operator@example.com',
  password: 'two-operator-password-1',
  name: 'Omar Operator',
  role: 'operator',
};
// Their own accounts: the create limit is per person, and one of them is disabled.
const RATE_OPERATOR: Staff = { email: 'rhea.rate@example.com', password: 'two-rate-password-1', name: 'Rhea Rate', role: 'operator' };
const LEAVER: Staff = { email: 'lena.leaver@example.com', password: 'two-leaver-password-1', name: 'Lena Leaver', role: 'operator' };
// Changes her own language; the others keep English for the tests that read English words.
const LINGUIST: Staff = { email: 'lien.linguist@example.com', password: 'two-linguist-password-1', name: 'Lien Linguist', role: 'viewer' };

const CREATE_LIMIT = 30;
const WEBHOOK_PATH = '/api/webhooks/verification-service';
// The session cache keeps a validated session for 5 s (lib/auth/session-cache.ts): a refusal
// seen well within that on B came from the cross-instance signal, not from the cache running out.
const WELL_WITHIN_SESSION_CACHE_MS = 2_000;
// A stream re-checks its session once a minute by itself (lib/live/sse.ts); ending well before
// that shows the disabling reached it.
const STREAM_ENDS_WITHIN_MS = 15_000;
// Waits for a state on a loaded machine; none of them is a latency budget.
const GENEROUS_MS = 20_000;

const test = base.extend<object, { deployment: TwoInstances }>({
  deployment: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const logsDir = process.env.E2E_DATA_DIR ? serverLogsDir(process.env.E2E_DATA_DIR) : undefined;
      const deployment = await startTwoInstances({
        basePort: portFor(70),
        staff: [ADMIN, OPERATOR, RATE_OPERATOR, LEAVER, LINGUIST],
        logsDir,
        env: {
          // Sign-ins all come from loopback through the proxy; the per-network throttle is not under test.
          TRUST_PROXY: '0',
        },
      });
      await use(deployment);
      await deployment.stop();
    },
    { scope: 'worker', timeout: 300_000 },
  ],
});

// In order, in one worker (fullyParallel is off); a failure costs a new deployment, not the rest of the file.
test.describe.configure({ mode: 'default' });
test.slow();

type Session = Awaited<ReturnType<BrowserContext['storageState']>>;
/** Each staff member's session on a deployment: signed in through the sign-in page once, then reused. */
const sessions = new Map<string, Session>();

/** A context whose every request goes to `instance` (or round-robin when omitted), signed in as `who` through the proxy. */
async function signedIn(browser: Browser, deployment: TwoInstances, who: Staff, instance?: InstanceName) {
  const key = `${deployment.url} ${who.email}`;
  const context = await browser.newContext({
    baseURL: deployment.url,
    storageState: sessions.get(key) ?? { cookies: [], origins: [] },
    extraHTTPHeaders: instance ? { [INSTANCE_HEADER]: instance } : {},
  });
  const page = await context.newPage();
  if (sessions.has(key)) {
    await page.goto('/');
  } else {
    await page.goto('/sign-in');
    await page.getByLabel('E-mail address').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await expect(page.getByTestId('signed-in-as')).toHaveText(who.name);
  sessions.set(key, await context.storageState());
  return { context, page };
}

async function cookieOf(context: BrowserContext): Promise<string> {
  return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** From now on, every request of `page`'s context goes to `instance`. */
async function pinTo(page: Page, instance: InstanceName) {
  await page.context().setExtraHTTPHeaders({ [INSTANCE_HEADER]: instance });
}

/** A shareable-link request made through the create form; its id, link and name. */
async function createSharedRequest(page: Page) {
  const name = uniqueName('Twin Person');
  await openCreateForm(page);
  await page.getByRole('switch', { name: 'Shareable link' }).check();
  await fillBasics(page, { name, purpose: 'Ensuring compliance' });
  await submitCreate(page);
  const id = await createdId(page);
  const link = await page.getByRole('textbox', { name: 'Shareable link' }).inputValue();
  return { id, link, name };
}

/** The person finishes the verification on the sandbox's page, served by `instance`. */
async function completeAsThePerson(browser: Browser, link: string, instance: InstanceName) {
  const person = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { [INSTANCE_HEADER]: instance },
  });
  const page = await person.newPage();
  await page.goto(link);
  await page.getByLabel('Name read from the identity document').fill('TWIN PERSON');
  await page.getByRole('button', { name: 'Complete with a passport' }).click();
  await page.getByRole('button', { name: 'Complete with a passport' }).waitFor({ state: 'detached' });
  await person.close();
}

async function watchDetail(page: Page, id: string) {
  await page.goto(`/verifications/${id}`);
  await expect(page.getByTestId('status')).toContainText('Pending');
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'live');
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
}

async function expectNoReload(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
}

/** A delivery signed as the service signs it, for a verification that exists. */
function signedDelivery(secret: string, webhookId: string, verificationId: string, type = 'verification.completed') {
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data: { verificationId } });
  const at = new Date();
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': webhookId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
    },
  };
}

async function postWebhook(deployment: TwoInstances, delivery: ReturnType<typeof signedDelivery>, instance?: InstanceName) {
  const response = await fetch(`${deployment.url}${WEBHOOK_PATH}`, {
    method: 'POST',
    headers: { ...delivery.headers, ...(instance ? { [INSTANCE_HEADER]: instance } : {}) },
    body: delivery.body,
  });
  const result = ((await response.json().catch(() => ({}))) as { status?: string }).status;
  return { status: response.status, result, instance: response.headers.get(INSTANCE_HEADER) };
}

test('a create on A appears in B’s register', async ({ browser, deployment }) => {
  const { context, page } = await signedIn(browser, deployment, OPERATOR, 'a');
  // B's register is read (and cached) before the create, so a stale cache would show.
  await pinTo(page, 'b');
  const name = uniqueName('Twin Register');
  await page.goto(`/?q=${encodeURIComponent(name.split(' ')[0]!)}`);
  await pinTo(page, 'a');
  await openCreateForm(page);
  await fillBasics(page, { name, email: 'twin.register@example.com' });
  await submitCreate(page);
  const id = await createdId(page);

  await pinTo(page, 'b');
  const answer = await page.goto(`/?q=${encodeURIComponent(name)}`);
  expect(answer?.headers()[INSTANCE_HEADER]).toBe('b');
  await expect(page.getByRole('row').filter({ hasText: id })).toBeVisible();
  await context.close();
});

test('a language chosen on A is the staff member’s on B, and in a browser that never chose it', async ({ browser, deployment }) => {
  const { context, page } = await signedIn(browser, deployment, LINGUIST, 'a');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('button', { name: 'Nederlands' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await expect(page.getByRole('link', { name: 'Verzoeken' })).toBeVisible();

  await pinTo(page, 'b');
  const answer = await page.goto('/');
  expect(answer?.headers()[INSTANCE_HEADER]).toBe('b');
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await context.close();

  // The session kept from before the change, with no language cookie: the account says Dutch.
  const elsewhere = await signedIn(browser, deployment, LINGUIST, 'b');
  expect((await elsewhere.context.cookies()).some((cookie) => cookie.name === 'vd-language')).toBe(false);
  await expect(elsewhere.page.locator('html')).toHaveAttribute('lang', 'nl');
  await expect(elsewhere.page.getByRole('navigation', { name: 'Hoofdmenu' })).toContainText('Verzoeken');
  await elsewhere.context.close();
});

test('a page rendered by A whose form posts to B works (server actions across instances)', async ({ browser, deployment }) => {
  const { context, page } = await signedIn(browser, deployment, OPERATOR, 'a');
  const rendered = await page.goto('/verifications/new');
  expect(rendered?.headers()[INSTANCE_HEADER]).toBe('a');
  await pinTo(page, 'b');
  const before = deployment.proxy.history().length;
  const name = uniqueName('Twin Action');
  await fillBasics(page, { name, email: 'twin.action@example.com' });
  await submitCreate(page);
  const id = await createdId(page);
  const actionPosts = deployment.proxy
    .history()
    .slice(before)
    .filter((exchange) => exchange.method === 'POST' && exchange.path.startsWith('/verifications/new'));
  expect(actionPosts.length).toBeGreaterThan(0);
  expect(actionPosts.every((exchange) => exchange.instance === 'b' && exchange.status === 200)).toBe(true);
  await page.goto(`/?q=${encodeURIComponent(name)}`);
  await expect(page.getByRole('row').filter({ hasText: id })).toBeVisible();
  await context.close();
});

test('a webhook posted to B shows live on A’s open detail page', async ({ browser, deployment }) => {
  const { context, page } = await signedIn(browser, deployment, OPERATOR, 'a');
  const { id, link } = await createSharedRequest(page);
  await watchDetail(page, id);

  // The service's deliveries all reach B; the person's page is served by B too.
  deployment.proxy.pin(WEBHOOK_PATH, 'b');
  try {
    const before = deployment.proxy.history().length;
    await completeAsThePerson(browser, link, 'b');
    await expect(page.getByTestId('status')).toContainText('Completed', { timeout: GENEROUS_MS });
    await expectNoReload(page);
    const deliveries = deployment.proxy
      .history()
      .slice(before)
      .filter((exchange) => exchange.path === WEBHOOK_PATH);
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries.every((exchange) => exchange.instance === 'b')).toBe(true);
  } finally {
    deployment.proxy.pin(WEBHOOK_PATH, null);
  }
  await context.close();
});

test('two officers on A and B: one takes an item, the other sees it taken live, her stale page is told who has it, and his note shows in her history', async ({
  browser,
  deployment,
}) => {
  const omar = await signedIn(browser, deployment, OPERATOR, 'a');
  const { id, link, name } = await createSharedRequest(omar.page);
  // A name mismatch: the queue's first reason.
  await completeAsThePerson(browser, link, 'a');
  const row = (page: Page) => page.getByTestId('queue-items').getByRole('row').filter({ hasText: id });

  // Rhea watches the queue on B, live; and keeps a page without JavaScript open from before.
  const rhea = await signedIn(browser, deployment, RATE_OPERATOR, 'b');
  await expect(async () => {
    await rhea.page.goto('/queue');
    await expect(row(rhea.page)).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: GENEROUS_MS });
  await expect(rhea.page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'live');
  const stale = await browser.newContext({
    baseURL: deployment.url,
    storageState: await rhea.context.storageState(),
    javaScriptEnabled: false,
    extraHTTPHeaders: { [INSTANCE_HEADER]: 'b' },
  });
  const stalePage = await stale.newPage();
  await stalePage.goto('/queue');
  await expect(row(stalePage).getByTestId('queue-assignee')).toHaveText('Nobody yet');

  await omar.page.goto('/queue');
  await row(omar.page)
    .getByRole('button', { name: new RegExp(`Take it ${name}`) })
    .click();
  await expect(row(omar.page).getByTestId('queue-assignee')).toHaveText(OPERATOR.name);

  await expect(row(rhea.page).getByTestId('queue-assignee')).toHaveText(OPERATOR.name, { timeout: GENEROUS_MS });
  await expect(row(rhea.page).getByRole('button', { name: /Take it/ })).toHaveCount(0);

  await row(stalePage)
    .getByRole('button', { name: /Take it/ })
    .click();
  await expect(stalePage.getByRole('alert')).toContainText(`Already taken: ${OPERATOR.name} has it now.`);
  await stale.close();

  // Rhea reads the request on B; Omar's note, added on A, arrives there live.
  await rhea.page.goto(`/verifications/${id}`);
  await expect(rhea.page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'live');
  await omar.page.goto(`/verifications/${id}`);
  const text = `Called ${name}; she retries tonight.`;
  await omar.page.getByLabel('New note').fill(text);
  await omar.page.getByRole('button', { name: 'Add the note' }).click();
  await expect(omar.page.getByTestId('note').filter({ hasText: text })).toBeVisible();
  await expect(rhea.page.getByTestId('note').filter({ hasText: text })).toBeVisible({ timeout: GENEROUS_MS });
  await rhea.context.close();
  await omar.context.close();
});

test(`${CREATE_LIMIT + 5} creates split over A and B allow ${CREATE_LIMIT}`, async ({ browser, deployment, playwright }) => {
  const { context } = await signedIn(browser, deployment, RATE_OPERATOR);
  const api = await playwright.request.newContext({ baseURL: deployment.url, storageState: await context.storageState() });
  const actionId = listServerActions().find((action) => action.name === 'createVerificationAction')!.id;
  const createOn = async (instance: InstanceName, n: number) => {
    const call = multipartActionCall(
      actionId,
      '/verifications/new',
      [{ status: 'idle', submissionKey: randomUUID() }, '$K1'],
      [
        { name: 'submissionKey', value: randomUUID() },
        { name: 'name', value: `Rate Person ${n}` },
        { name: 'email', value: `rate.${n}@example.com` },
        { name: 'purpose', value: 'legal_obligations' },
        { name: 'customPurpose', value: '' },
        { name: 'language', value: 'en' },
        { name: 'emailNotification', value: 'on' },
        { name: 'phone', value: '' },
      ],
    );
    call.headers[INSTANCE_HEADER] = instance;
    const response = await replayAction(api, deployment.url, call, { origin: deployment.url });
    const text = await response.text();
    if (/"status":"created"/.test(text)) return { instance, outcome: 'created' };
    if (text.includes(`You have created ${CREATE_LIMIT} requests in the last minute`)) return { instance, outcome: 'limited' };
    return { instance, outcome: `other: ${response.status()} ${text.slice(0, 200)}` };
  };
  // All at once, alternating instances: per-process counters would allow up to twice the limit.
  const answers = await Promise.all(Array.from({ length: CREATE_LIMIT + 5 }, (_, n) => createOn(n % 2 === 0 ? 'a' : 'b', n)));
  const count = (outcome: string, instance?: InstanceName) =>
    answers.filter((a) => a.outcome === outcome && (instance === undefined || a.instance === instance)).length;
  const summary = `created ${count('created', 'a')} on A + ${count('created', 'b')} on B, limited ${count('limited')}`;
  expect(
    answers.filter((a) => !['created', 'limited'].includes(a.outcome)),
    summary,
  ).toEqual([]);
  expect(count('created'), summary).toBe(CREATE_LIMIT);
  expect(count('limited'), summary).toBe(5);
  await api.dispose();
  await context.close();
});

test('disabling an account on A ends its session on B', async ({ browser, deployment }) => {
  const leaver = await signedIn(browser, deployment, LEAVER, 'b');
  const admin = await signedIn(browser, deployment, ADMIN, 'a');
  await admin.page.goto('/staff');
  const row = admin.page.getByRole('row').filter({ hasText: LEAVER.email });

  // Her session is validated (and cached) on B just before; a stream of hers is open on B.
  const stream = await openEventStream(deployment.instances.b.url, await cookieOf(leaver.context));
  expect(stream.status).toBe(200);
  await leaver.page.goto('/');
  await expect(leaver.page.getByTestId('signed-in-as')).toHaveText(LEAVER.name);

  await disableThroughDialog(admin.page, row, LEAVER.name);
  await expect(row.getByRole('cell').nth(1)).toHaveText('Disabled');

  await expect
    .poll(
      async () => {
        const answer = await leaver.context.request.get('/', { maxRedirects: 0, headers: { [INSTANCE_HEADER]: 'b' } });
        return `${answer.status()} ${answer.headers().location ?? ''}`;
      },
      { timeout: WELL_WITHIN_SESSION_CACHE_MS, intervals: [50] },
    )
    .toMatch(/^30\d .*\/sign-in/);
  // Her stream on B ends too, long before its own periodic session check (once a minute) would end it.
  const streamEnded = await Promise.race([
    stream.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), STREAM_ENDS_WITHIN_MS)),
  ]);
  stream.close();
  expect(streamEnded, 'her stream on B ended').toBe(true);
  await admin.context.close();
  await leaver.context.close();
});

test('killing A leaves B serving, and a restarted A catches up', async ({ browser, deployment }) => {
  const { context, page } = await signedIn(browser, deployment, OPERATOR);
  const cookie = await cookieOf(context);
  const { id, link } = await createSharedRequest(page);
  const onA = await openEventStream(deployment.instances.a.url, cookie);
  // One event seen on A before the kill: where the restarted A must pick up from.
  await postWebhook(
    deployment,
    signedDelivery(deployment.webhookSecret, `msg_before_kill_${randomUUID()}`, id, 'verification.created'),
    'b',
  );
  await onA.waitFor((frame) => frameData(frame).verificationId === id);
  const heartbeatOrEvent = onA.frames.length;
  await deployment.kill('a');
  await onA.ended;
  const lastSeen = [...onA.frames].reverse().find((frame) => frame.id !== undefined)?.id;

  // Through the proxy, everything lands on B: pages, creates, the person's page, deliveries.
  const { id: whileDown, name: whileDownName } = await createSharedRequest(page);
  await completeAsThePerson(browser, link, 'b');
  await page.goto(`/verifications/${id}`);
  await expect(page.getByTestId('status')).toContainText('Completed', { timeout: GENEROUS_MS });
  expect((await context.request.get('/sign-in', { headers: { [INSTANCE_HEADER]: 'a' } })).status()).toBe(502);

  await deployment.start('a');
  // A knows what happened while it was down: the register, and the live events it missed.
  await pinTo(page, 'a');
  await page.goto(`/?q=${encodeURIComponent(whileDownName)}`);
  await expect(page.getByRole('row').filter({ hasText: whileDown })).toBeVisible();
  const replay = await openEventStream(
    deployment.instances.a.url,
    cookie,
    lastSeen === undefined ? {} : { 'Last-Event-ID': String(lastSeen) },
  );
  expect(replay.status).toBe(200);
  const caughtUp = await replay.waitFor((frame) => frame.event === 'resync' || frameData(frame).verificationId === id);
  replay.close();
  expect(caughtUp.event, `frames before the kill: ${heartbeatOrEvent}, last id ${lastSeen}`).toBe('verification');
  expect(frameData(caughtUp).status).toBe('completed');
  await context.close();
});

test('PostgreSQL stopped for 10 s and started again: both instances recover without a restart', async ({ browser, deployment }) => {
  test.setTimeout(240_000);
  const pids = { a: deployment.instances.a.server()!.pid, b: deployment.instances.b.server()!.pid };
  const { context, page } = await signedIn(browser, deployment, OPERATOR, 'a');
  const { id, link } = await createSharedRequest(page);
  await watchDetail(page, id);
  const ready = async (instance: InstanceName) => (await fetch(`${deployment.instances[instance].url}/api/ready`)).status;
  expect([await ready('a'), await ready('b')]).toEqual([200, 200]);

  deployment.haltDatabase();
  const downSince = Date.now();
  try {
    await expect.poll(() => ready('a'), { timeout: GENEROUS_MS }).toBe(503);
    await expect.poll(() => ready('b'), { timeout: GENEROUS_MS }).toBe(503);
    // A page during the outage says so; it is not a crash.
    const during = await context.request.get('/', { headers: { [INSTANCE_HEADER]: 'b' } });
    expect(during.status(), await during.text().then((t) => t.slice(0, 300))).toBeLessThan(500);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - downSince))));
  } finally {
    deployment.resumeDatabase();
  }

  await expect.poll(() => ready('a'), { timeout: 60_000 }).toBe(200);
  await expect.poll(() => ready('b'), { timeout: 60_000 }).toBe(200);
  for (const instance of ['a', 'b'] as const) {
    const answer = await context.request.get('/', { headers: { [INSTANCE_HEADER]: instance } });
    expect(answer.status()).toBe(200);
    expect(await answer.text()).toContain(OPERATOR.name);
  }
  // The live stream resumed: a change made through B after the outage reaches A's open page.
  deployment.proxy.pin(WEBHOOK_PATH, 'b');
  try {
    await completeAsThePerson(browser, link, 'b');
    await expect(page.getByTestId('status')).toContainText('Completed', { timeout: 60_000 });
  } finally {
    deployment.proxy.pin(WEBHOOK_PATH, null);
  }
  expect({ a: deployment.instances.a.server()!.pid, b: deployment.instances.b.server()!.pid }).toEqual(pids);
  await context.close();
});

test('an operator downloads a finished request’s evidence pack; the audit trail of both instances is one chain, verified with the signing key, and a tampering made with SQL shows as the break', async ({
  browser,
  deployment,
}) => {
  // The pack: a request made on A, completed through B; the PDF downloaded from the page, the
  // signed JSON fetched from its link in the same session.
  const officer = await signedIn(browser, deployment, OPERATOR, 'a');
  const request = await createSharedRequest(officer.page);
  await completeAsThePerson(browser, request.link, 'b');
  await officer.page.goto(`/verifications/${request.id}`);
  await expect(officer.page.getByTestId('status')).toContainText('Completed');
  const [pdf] = await Promise.all([
    officer.page.waitForEvent('download'),
    officer.page.getByRole('link', { name: 'Download PDF' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toBe(`evidence-pack-${request.id}.pdf`);
  expect(
    readFileSync(await pdf.path())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  const jsonHref = await officer.page.getByRole('link', { name: 'Download signed JSON' }).getAttribute('href');
  const pack = await (await officer.context.request.get(jsonHref!)).json();
  await officer.context.close();

  const { context, page } = await signedIn(browser, deployment, ADMIN, 'a');
  const keysPem = await (await context.request.get('/api/audit/public-keys')).text();
  expect(verifyPack(pack, [keysPem])).toMatchObject({ ok: true });
  await page.goto('/audit');
  // The check run here, on A, covers what both instances wrote (sign-ins, creates, the pack...).
  await page.getByRole('button', { name: 'Check the chain now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Checked: the chain is intact.' })).toBeVisible();
  await expect(page.locator('[data-chain-state="verified"]')).toContainText(/Chain verified: entries 1 to [\d,]+ are intact/);
  const fingerprint = await page.locator('[data-fingerprint]').getAttribute('data-fingerprint');
  expect(
    createHash('sha256')
      .update(createPublicKey(keysPem).export({ type: 'spki', format: 'der' }))
      .digest('hex'),
  ).toBe(fingerprint);

  // Someone with the database's password changes what an entry says; B's check finds it.
  const database = new pg.Client({ connectionString: deployment.databaseUrl });
  await database.connect();
  try {
    await database.query(`update audit_entries set action = 'sign_out' where seq = (select min(seq) + 1 from audit_entries)`);
  } finally {
    await database.end();
  }
  await pinTo(page, 'b');
  await page.getByRole('button', { name: 'Check the chain now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Checked: the chain is broken' })).toBeVisible();
  const banner = page.getByRole('alert').filter({ hasText: 'The audit trail’s chain is broken' });
  await expect(banner).toContainText('the entry was changed after it was written.');
  await expect((await fetch(`${deployment.instances.a.url}/api/ready`)).json()).resolves.toMatchObject({
    status: 'ready',
    details: { auditChain: { state: 'broken' } },
  });
  await expectNoSeriousViolations(page, 'audit page: the break, the integrity section and its buttons');
  await context.close();
});
