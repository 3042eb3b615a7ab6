// Two instances on one PostgreSQL act as one (docs/quality.md, "Several instances"): the
// deployment of e2e/support/two-instances.ts — instances A and B of the same build, one database,
// one round-robin proxy in front — started once for this file. Each test pins requests to A or B
// (the proxy's `x-vd-instance` header, or a pinned path) where the proof needs to know which
// instance did what. The tests that kill an instance, freeze one or stop the database come last
// and leave the deployment serving again.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { type Browser, type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
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

const CREATE_LIMIT = 30;
const LISTENER_APPLICATION_NAME = 'verification-desk-listener';
const WEBHOOK_PATH = '/api/webhooks/verification-service';
// The session cache keeps a validated session for 5 s (lib/auth/session-cache.ts): a refusal
// seen well within that on B came from the cross-instance signal, not from the cache running out.
const WELL_WITHIN_SESSION_CACHE_MS = 2_000;
// A stream re-checks its session once a minute by itself (lib/live/sse.ts); ending well before
// that shows the disabling reached it.
const STREAM_ENDS_WITHIN_MS = 15_000;
// Waits for a state on a loaded machine; none of them is a latency budget.
const GENEROUS_MS = 20_000;
/** How often each instance's sandbox looks for links that ran out (SANDBOX_SWEEP_INTERVAL_MS below). */
const SWEEP_EVERY_MS = 200;

const test = base.extend<object, { deployment: TwoInstances }>({
  deployment: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright's fixture signature.
    async ({}, use) => {
      const logsDir = process.env.E2E_DATA_DIR ? serverLogsDir(process.env.E2E_DATA_DIR) : undefined;
      const deployment = await startTwoInstances({
        basePort: portFor(70),
        staff: [ADMIN, OPERATOR, RATE_OPERATOR, LEAVER],
        logsDir,
        shortLivedCompanySeconds: 2,
        env: {
          // The sweeper looks often, so that its runs on both instances can be watched side by side.
          SANDBOX_SWEEP_INTERVAL_MS: String(SWEEP_EVERY_MS),
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

/** A context whose every request goes to `instance` (or round-robin when omitted), signed in as `who` through the proxy. */
async function signedIn(browser: Browser, deployment: TwoInstances, who: Staff, instance?: InstanceName) {
  const context = await browser.newContext({
    baseURL: deployment.url,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: instance ? { [INSTANCE_HEADER]: instance } : {},
  });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText(who.name);
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

/** A verification made through the sandbox API with the company's own key (not in the dashboard's register). */
async function createThroughApi(deployment: TwoInstances, apiKey = deployment.company.apiKey): Promise<string> {
  const response = await fetch(`${deployment.url}/v1/verifications/new`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Api Person', email: 'api.person@example.com', chosenPurpose: 'ensuring_compliance', language: 'en' }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { verificationId: string }).verificationId;
}

async function withDatabase<T>(deployment: TwoInstances, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: deployment.databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The backend pid of `instance`'s listener connection: of the listeners in pg_stat_activity, the
 * one whose client port is a socket that instance's process holds open (/proc, Linux).
 */
async function listenerBackendOf(deployment: TwoInstances, instance: InstanceName): Promise<number> {
  const pid = deployment.instances[instance].server()!.pid;
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const localPorts = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length > 9 && inodes.has(fields[9]!)) localPorts.add(Number.parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  const { rows } = await withDatabase(deployment, (client) =>
    client.query<{ pid: number; client_port: number }>('select pid, client_port from pg_stat_activity where application_name = $1', [
      LISTENER_APPLICATION_NAME,
    ]),
  );
  const found = rows.filter((row) => localPorts.has(row.client_port));
  expect(found, `one listener of instance ${instance} among ${JSON.stringify(rows)}`).toHaveLength(1);
  return found[0]!.pid;
}

/** SIGSTOP / SIGCONT to the instance's whole process group: it holds its connections but does nothing. */
function freeze(deployment: TwoInstances, instance: InstanceName, frozen: boolean) {
  process.kill(-deployment.instances[instance].server()!.pid, frozen ? 'SIGSTOP' : 'SIGCONT');
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

test('200 webhooks with 20% duplicates spread over both instances are each applied once', async ({ deployment }) => {
  const ids = await Promise.all(Array.from({ length: 20 }, () => createThroughApi(deployment)));
  // The service announces each new record itself; those deliveries (and their re-reads) are done
  // before the burst, so that every re-read counted below is one of the burst's.
  await expect
    .poll(
      () =>
        withDatabase(deployment, async (client) => {
          const { rows } = await client.query<{ n: number }>(
            'select count(distinct verification_id)::int as n from webhook_receipts where verification_id = any($1)',
            [ids],
          );
          return rows[0]!.n;
        }),
      { timeout: GENEROUS_MS },
    )
    .toBe(ids.length);
  const prefix = `msg_twin_${Date.now().toString(36)}_`;
  const originals = Array.from({ length: 160 }, (_, n) => ({
    webhookId: `${prefix}${n}`,
    verificationId: ids[n % ids.length]!,
    type: n % 2 === 0 ? 'verification.created' : 'verification.completed',
  }));
  // 40 copies, each sent together with its original, to the other instance.
  const plan: Array<{ webhookId: string; verificationId: string; type: string; instance: InstanceName }> = [];
  originals.forEach((original, n) => {
    const instance: InstanceName = n % 2 === 0 ? 'a' : 'b';
    plan.push({ ...original, instance });
    if (n % 4 === 0) plan.push({ ...original, instance: instance === 'a' ? 'b' : 'a' });
  });
  expect(plan).toHaveLength(200);

  const from = new Date();
  const answers: Array<Awaited<ReturnType<typeof postWebhook>> & { webhookId: string }> = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < plan.length) {
        const delivery = plan[next++]!;
        const signed = signedDelivery(deployment.webhookSecret, delivery.webhookId, delivery.verificationId, delivery.type);
        answers.push({ ...(await postWebhook(deployment, signed, delivery.instance)), webhookId: delivery.webhookId });
      }
    }),
  );
  const to = new Date();

  expect(answers.filter((a) => a.status !== 200)).toEqual([]);
  expect(new Set(answers.map((a) => a.instance))).toEqual(new Set(['a', 'b']));
  const processed = new Map<string, number>();
  for (const a of answers) if (a.result === 'processed') processed.set(a.webhookId, (processed.get(a.webhookId) ?? 0) + 1);
  expect([...processed.values()].filter((n) => n > 1)).toEqual([]);
  expect(processed.size).toBe(160);
  expect(answers.filter((a) => a.result === 'duplicate')).toHaveLength(40);

  // What was stored: one receipt and one published change per webhook-id. (Re-reads of the record
  // are not counted: a copy may read before it finds the receipt taken, which changes nothing.)
  const stored = await withDatabase(deployment, async (client) => {
    const receipts = await client.query<{ n: number }>('select count(*)::int as n from webhook_receipts where webhook_id like $1', [
      `${prefix}%`,
    ]);
    const published = await client.query<{ n: number }>(
      'select count(*)::int as n from live_events where at between $1 and $2 and verification_id = any($3)',
      [from, to, ids],
    );
    return { receipts: receipts.rows[0]!.n, published: published.rows[0]!.n };
  });
  expect(stored).toEqual({ receipts: 160, published: 160 });
});

test('the sweeper never runs on both at once', async ({ deployment }) => {
  // Links of this company run out after 2 s; both instances sweep every 200 ms.
  const ids = await Promise.all(Array.from({ length: 6 }, () => createThroughApi(deployment, deployment.shortLivedCompany!.apiKey)));
  // Every sandbox job's run, as its lease row records it (holder, start, finish), sampled often.
  const runs = new Map<string, { name: string; by: string; started: number; finished: number }>();
  const sample = () =>
    withDatabase(deployment, async (client) => {
      const { rows } = await client.query<{ name: string; by: string; started: Date; finished: Date | null }>(
        `select name, last_run_by as by, last_started_at as started, last_finished_at as finished from sandbox.job_leases`,
      );
      for (const row of rows) {
        if (!row.finished || row.finished < row.started) continue;
        runs.set(`${row.name} ${row.started.toISOString()}`, {
          name: row.name,
          by: row.by,
          started: row.started.getTime(),
          finished: row.finished.getTime(),
        });
      }
    });
  const until = Date.now() + 8_000;
  while (Date.now() < until) {
    await sample();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const sweeps = [...runs.values()].filter((run) => /expir/i.test(run.name)).sort((x, y) => x.started - y.started);
  // Whichever instance wins each claim (often the same one), the sweeps of the deployment are one
  // series: never two at once, and never two within one period, as two unco-ordinated timers of
  // 200 ms would give (they start sweeps about 100 ms apart on average).
  expect(sweeps.length, 'sweeps seen').toBeGreaterThan(3);
  const overlapping = sweeps.filter((run, i) => i > 0 && run.started < sweeps[i - 1]!.finished);
  expect(overlapping, `${sweeps.length} sweeps seen`).toEqual([]);
  const tooSoon = sweeps.filter((run, i) => i > 0 && run.started - sweeps[i - 1]!.started < SWEEP_EVERY_MS - 1);
  expect(tooSoon, 'sweeps started within one period of the previous one').toEqual([]);
  // And the work was done once: each link ran out, and the record says so.
  for (const id of ids) {
    const record = await fetch(`${deployment.url}/v1/verifications/${id}`, {
      headers: { Authorization: `Bearer ${deployment.shortLivedCompany!.apiKey}` },
    });
    expect(((await record.json()) as { status: string }).status).toBe('expired');
  }
});

test('after pg_terminate_backend of A’s listener, an event sent in the gap still arrives', async ({ browser, deployment }) => {
  const { context, page } = await signedIn(browser, deployment, OPERATOR, 'a');
  const { id, link } = await createSharedRequest(page);
  await watchDetail(page, id);
  const listener = await listenerBackendOf(deployment, 'a');

  // A is frozen, so it cannot reconnect before the event is sent: the gap is certain, not a race.
  deployment.proxy.pin(WEBHOOK_PATH, 'b');
  freeze(deployment, 'a', true);
  try {
    await withDatabase(deployment, (client) => client.query('select pg_terminate_backend($1)', [listener]));
    await completeAsThePerson(browser, link, 'b');
    // The change is stored (B applied the service's delivery) while A still sleeps.
    await expect
      .poll(
        () =>
          withDatabase(deployment, async (client) => {
            const { rows } = await client.query<{ status: string }>('select status from verification_requests where verification_id = $1', [
              id,
            ]);
            return rows[0]?.status;
          }),
        { timeout: GENEROUS_MS },
      )
      .toBe('completed');
  } finally {
    freeze(deployment, 'a', false);
    deployment.proxy.pin(WEBHOOK_PATH, null);
  }
  await expect(page.getByTestId('status')).toContainText('Completed', { timeout: GENEROUS_MS });
  await expectNoReload(page);
  // A listens again, on a new connection.
  await expect.poll(() => listenerBackendOf(deployment, 'a').catch(() => listener), { timeout: GENEROUS_MS }).not.toBe(listener);
  await context.close();
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

test('SSE latency across instances: a webhook posted to B reaches a stream open on A (p50/p99 of 200 events)', async ({
  browser,
  deployment,
}) => {
  const { context } = await signedIn(browser, deployment, OPERATOR);
  const id = await createThroughApi(deployment);
  const stream = await openEventStream(deployment.instances.a.url, await cookieOf(context));
  expect(stream.status).toBe(200);
  const prefix = `msg_latency_${Date.now().toString(36)}_`;
  const latencies: number[] = [];
  // One at a time, so each figure is one event's way, not a queue's.
  for (let n = 0; n < 200; n++) {
    const delivery = signedDelivery(deployment.webhookSecret, `${prefix}${n}`, id);
    const from = stream.frames.length;
    const sent = performance.now();
    const answer = await postWebhook(deployment, delivery, 'b');
    expect(answer.result).toBe('processed');
    const frame = await stream.waitFor((f) => frameData(f).verificationId === id, from);
    latencies.push(frame.receivedAt - sent);
  }
  stream.close();
  latencies.sort((x, y) => x - y);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  const figure = `SSE across instances (webhook posted to B → frame on A's stream, includes B's re-read of the record): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms over ${latencies.length} events`;
  console.log(figure);
  test.info().annotations.push({ type: 'latency', description: figure });
  await context.close();
});
