// Single sign-on through a real OpenID Connect provider (oidc-provider on loopback, its own
// login and consent pages), in Chromium, against two instances of the production build on one
// throwaway PostgreSQL — so the tests can ask the database what a refused sign-in wrote.
//
//   - instance A: password sign-in on, single sign-on configured;
//   - instance B: PASSWORD_SIGN_IN=off. Both have A's address as APP_URL, as the instances of one
//     deployment share its public address: a sign-in started on B comes back to A.
//
// Vera has no password: an administrator invited her, and she signs in through the provider
// instead, which must leave her invitation unusable.
//
// Refusals are checked once in the browser and otherwise over HTTP (the provider's pages are
// plain forms). A database the test can write is also what an expired invitation needs (its end
// moved into the past), so that invitation test is here too, on instance A.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { runCli, seed } from './kit/cli.mjs';
import { type PostgresServer, startThrowawayPostgres } from './kit/postgres.mjs';
import { expectNoSeriousViolations } from './support/accessibility';
import canaries from './support/canaries.json' with { type: 'json' };
import { setPasswordHere } from './support/invitations';
import { type NextServer, startNextServer } from './support/next-server';
import { type OidcProvider, type ProviderUser, signInAtProviderOverHttp, startOidcProvider } from './support/oidc-provider';
import { portFor } from './support/ports';
import { formActionCall, listServerActions, replayAction } from './support/server-actions';

const STAFF_CLI = 'lib/staff/cli.ts';
const LABEL = 'Sign in with Example Corp';
const PROVIDER_PORT = portFor(100);
const A_URL = `http://localhost:${portFor(101)}`;
const B_URL = `http://localhost:${portFor(102)}`;
const PASSWORD = 'a staff password long enough';

const VERA = { email: 'vera@example.com', name: 'Vera Viewer', role: 'viewer' };
/** Invited like Vera, but her link runs out before she uses it. */
const ERIN = { email: 'erin@example.com', name: 'Erin Expiring', role: 'operator' } as const;
const STAFF = [
  { email: 'otto@example.com', name: 'Otto Operator', role: 'operator' },
  { email: 'carl@example.com', name: 'Carl Crossing', role: 'operator' },
  { email: 'uma@example.com', name: 'Uma Unverified', role: 'operator' },
  { email: 'dora@example.com', name: 'Dora Disabled', role: 'operator' },
  { email: 'ada@example.com', name: 'Ada Admin', role: 'admin' },
  { email: 'grace@example.com', name: 'Grace Admin', role: 'admin' },
];

const PROVIDER_USERS: ProviderUser[] = [
  { login: 'vera', email: 'vera@example.com', emailVerified: true, name: 'Vera at Example Corp' },
  { login: 'otto', email: 'otto@example.com', emailVerified: true, name: 'Otto at Example Corp' },
  { login: 'carl', email: 'carl@example.com', emailVerified: true, name: 'Carl at Example Corp' },
  { login: 'uma', email: 'uma@example.com', emailVerified: false, name: 'Uma at Example Corp' },
  { login: 'dora', email: 'dora@example.com', emailVerified: true, name: 'Dora at Example Corp' },
  { login: 'stranger', email: 'stranger@example.com', emailVerified: true, name: 'Not on the staff' },
  { login: 'stranger-unverified', email: 'someone@example.com', emailVerified: false, name: 'Not verified either' },
  // Another identity (its own `sub`, the login) with Vera's verified address in another case.
  { login: 'vera-elsewhere', email: 'VERA@Example.COM', emailVerified: true, name: 'Not Vera’s identity' },
];

let root: string;
let postgres: PostgresServer;
let provider: OidcProvider;
let database: pg.Pool;
/** The path of the invitation link the CLI issued to Vera (an administrator's link, sent on to her). */
let veraInvitation: string;
/** The same for Erin. */
let erinInvitation: string;
const servers: NextServer[] = [];

// Nobody is signed in: not the shared server's operator either (cookies do not tell ports apart).
test.use({ storageState: { cookies: [], origins: [] } });
test.describe.configure({ mode: 'serial' });

const cli = <T>(args: string[], env: Record<string, string> = {}, input = '') =>
  runCli<T>(STAFF_CLI, args, {
    dataDir: path.join(root, 'cli'),
    env: {
      DATABASE_URL: postgres.url,
      BETTER_AUTH_SECRET: canaries.BETTER_AUTH_SECRET,
      AUDIT_SIGNING_KEY: canaries.AUDIT_SIGNING_KEY,
      ...env,
    },
    input,
  });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  root = mkdtempSync(path.join(os.tmpdir(), 'verification-desk-sso-'));
  postgres = await startThrowawayPostgres();
  database = new pg.Pool({ connectionString: postgres.url, max: 2 });
  // What `users create` (with and without a password) and `users disable` make, in one process.
  const made = seed(
    path.join(root, 'cli'),
    [
      ...STAFF.map((staff) => ({ staff: { ...staff, password: PASSWORD } })),
      { disable: 'dora@example.com' },
      { staff: VERA },
      { staff: ERIN },
    ],
    { DATABASE_URL: postgres.url, BETTER_AUTH_SECRET: canaries.BETTER_AUTH_SECRET, AUDIT_SIGNING_KEY: canaries.AUDIT_SIGNING_KEY },
  );
  veraInvitation = new URL(made.at(-2).invitation).pathname;
  erinInvitation = new URL(made.at(-1).invitation).pathname;

  provider = await startOidcProvider({ port: PROVIDER_PORT, redirectUris: [`${A_URL}/api/auth/callback/oidc`], users: PROVIDER_USERS });
  const shared = {
    DATABASE_URL: postgres.url,
    BETTER_AUTH_SECRET: canaries.BETTER_AUTH_SECRET,
    AUDIT_SIGNING_KEY: canaries.AUDIT_SIGNING_KEY,
    APP_URL: A_URL,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_LABEL: LABEL,
    // Sign-in is all these tests do: the service is never called (nothing listens there).
    VERIFICATION_API_URL: `http://127.0.0.1:${portFor(109)}`,
    VERIFICATION_API_KEY: 'not-used-by-these-tests',
    SANDBOX: 'off',
  };
  const [a, b] = await Promise.all([
    startNextServer({ port: portFor(101), dataDir: path.join(root, 'a'), env: shared, timeoutMs: 120_000 }),
    startNextServer({ port: portFor(102), dataDir: path.join(root, 'b'), env: { ...shared, PASSWORD_SIGN_IN: 'off' }, timeoutMs: 120_000 }),
  ]);
  servers.push(a, b);
});

test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await provider?.stop();
  await database?.end();
  await postgres?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The provider's development login and consent pages, as a colleague goes through them. */
async function signInAtProvider(page: Page, login: string) {
  await page.waitForURL((url) => url.href.startsWith(provider.issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('whatever the provider checks');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Starts at `base`'s sign-in page with the SSO button and goes through the provider as `login`. */
async function singleSignOn(page: Page, base: string, login: string, startPath = '/sign-in') {
  await page.goto(`${base}${startPath}`);
  await page.getByRole('button', { name: LABEL }).click();
  await signInAtProvider(page, login);
}

/**
 * The same from `base`'s sign-in action, posted as the page's form posts it, over `api`: the
 * answer where the redirects end.
 */
async function singleSignOnOverHttp(api: APIRequestContext, base: string, login: string) {
  const start = listServerActions().find((action) => action.name === 'startSingleSignOnAction');
  expect(start).toBeDefined();
  const call = formActionCall(start!.id, '/sign-in', { status: 'idle', values: {} }, { next: '/' });
  const started = await replayAction(api, base, call, { origin: base });
  // A fetched action answers a redirect with this header ("<url>;push"), not with an HTTP redirect.
  const authorizationUrl = (started.headers()['x-action-redirect'] ?? '').replace(/;(push|replace)$/, '');
  expect(authorizationUrl.startsWith(`${provider.issuer}/`), `${started.status()} ${authorizationUrl}`).toBe(true);
  return signInAtProviderOverHttp(api, authorizationUrl, login);
}

/** The password sign-in action as the page posts it, with the right password of `email`. */
function passwordSignIn(email: string) {
  const signIn = listServerActions().find((action) => action.name === 'signInAction');
  expect(signIn).toBeDefined();
  return formActionCall(signIn!.id, '/sign-in', { status: 'idle', values: { email: '' } }, { email, password: PASSWORD, next: '/' });
}

/** A request context with Ada's session on A, signed in over HTTP: the sign-in page is not these tests' subject. */
async function adminOnA(playwright: { request: { newContext(): Promise<APIRequestContext> } }): Promise<APIRequestContext> {
  const api = await playwright.request.newContext();
  const signedIn = await replayAction(api, A_URL, passwordSignIn('ada@example.com'), { origin: A_URL });
  expect(signedIn.headers()['set-cookie'] ?? '').toContain('vdesk.session_token=');
  return api;
}

async function newContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] }, ...options });
  // The provider's development pages load a web font; there is no Internet here.
  await context.route('https://fonts.googleapis.com/**', (route) => route.abort());
  return context;
}

const count = async (table: 'staff_users' | 'staff_accounts') =>
  Number((await database.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);

async function refusalsAudited(): Promise<Array<{ reason: string; actorId: string | null; targetId: string | null }>> {
  const { rows } = await database.query(
    `SELECT details->>'reason' AS reason, actor_id AS "actorId", target_id AS "targetId" FROM audit_entries WHERE action = 'sso.refused' ORDER BY at, id`,
  );
  return rows;
}

async function auditOf(action: string): Promise<Array<{ actorId: string | null; targetId: string | null; details: unknown }>> {
  const { rows } = await database.query(
    `SELECT actor_id AS "actorId", target_id AS "targetId", details FROM audit_entries WHERE action = $1 ORDER BY at, id`,
    [action],
  );
  return rows;
}

test('a known colleague signs in through the provider, keeps the role set here, returns to the page asked for, and her invitation stops working', async ({
  browser,
  request,
  playwright,
}) => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(`${A_URL}/sign-in?next=${encodeURIComponent('/verifications?page=1')}`);
  await expect(page.getByRole('button', { name: LABEL })).toBeVisible();
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: LABEL }).click();
  await signInAtProvider(page, 'vera');

  // Back at the page asked for, kept through the round trip.
  await expect(page).toHaveURL(`${A_URL}/verifications?page=1`);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Vera Viewer');
  await expect(page.getByTestId('signed-in-as').locator('..')).toContainText('Viewer');

  const { rows: users } = await database.query(`SELECT id, role, name FROM staff_users WHERE email = 'vera@example.com'`);
  expect(users).toEqual([{ id: expect.any(String), role: 'viewer', name: 'Vera Viewer' }]);
  const { rows: audit } = await database.query(`SELECT actor_id AS "actorId" FROM audit_entries WHERE action = 'sso.signed_in'`);
  expect(audit).toEqual([{ actorId: users[0].id }]);

  // The invitation issued before her first single sign-on now says why it no longer works.
  const invitationPage = await request.get(`${A_URL}${veraInvitation}`);
  expect(invitationPage.status()).toBe(200);
  const invitationHtml = await invitationPage.text();
  expect(invitationHtml).toContain('Invitation not valid</h1>');
  expect(invitationHtml).toContain('This account signs in with your company’s single sign-on');
  expect(invitationHtml).not.toContain('New password');
  await context.close();

  // Whoever still holds the link cannot set a password by posting the form's action by hand either.
  const accept = listServerActions().find((action) => action.name === 'acceptInvitationAction');
  expect(accept).toBeDefined();
  const token = veraInvitation.split('/').pop()!;
  const call = formActionCall(
    accept!.id,
    veraInvitation,
    { status: 'idle', values: {} },
    { token, password: PASSWORD, confirmPassword: PASSWORD },
  );
  const replayed = await replayAction(request, A_URL, call, { origin: A_URL });
  expect(await replayed.text()).toContain('This account signs in with your company’s single sign-on');
  expect(replayed.headers()['set-cookie'] ?? '').not.toContain('session_token');
  const { rows: passwords } = await database.query(`SELECT id FROM staff_accounts WHERE user_id = $1 AND provider_id = 'credential'`, [
    users[0].id,
  ]);
  expect(passwords).toEqual([]);
  // And no administrator can issue her a new one (the staff page's "New invitation link", posted by hand).
  const admin = await adminOnA(playwright);
  const issue = listServerActions().find((action) => action.name === 'issueInvitationAction');
  expect(issue).toBeDefined();
  const issueCall = formActionCall(issue!.id, '/staff', { status: 'idle', values: {} }, { userId: users[0].id });
  const issued = await (await replayAction(admin, A_URL, issueCall, { origin: A_URL })).text();
  await admin.dispose();
  expect(issued).toContain('signs in with the company’s single sign-on, so no invitation is issued');
  expect(issued).not.toContain('"status":"issued"');

  const { rows: ada } = await database.query(`SELECT id FROM staff_users WHERE email = 'ada@example.com'`);
  const reason = { reason: 'single_sign_on' };
  expect(await auditOf('invitation.voided')).toEqual([{ actorId: users[0].id, targetId: users[0].id, details: reason }]);
  expect(await auditOf('invitation.refused')).toEqual([
    { actorId: null, targetId: users[0].id, details: { ...reason, step: 'accept' } },
    { actorId: ada[0].id, targetId: users[0].id, details: { ...reason, step: 'issue' } },
  ]);
});

test('an unknown colleague, an unverified address, a disabled account and a second identity with a linked address are each refused with their own page and nothing written', async ({
  browser,
  playwright,
}) => {
  // Five round trips through the provider, one of them in a browser.
  test.slow();
  const usersBefore = await count('staff_users');
  const accountsBefore = await count('staff_accounts');
  const cases = [
    { login: 'stranger', title: 'No staff account for this sign-in', reason: 'unknown' },
    { login: 'uma', title: 'Your e-mail address is not verified', reason: 'unverified' },
    // An unverified address gets the same answer whether or not a colleague has it.
    { login: 'stranger-unverified', title: 'Your e-mail address is not verified', reason: 'unverified' },
    { login: 'dora', title: 'This account is disabled', reason: 'disabled' },
    // Vera's account is pinned to the identity she linked in the first test.
    { login: 'vera-elsewhere', title: 'This account is linked to another sign-in', reason: 'other_identity' },
  ];
  // The first in a browser; the others as a browser without JavaScript goes, over HTTP.
  const [first, ...others] = cases;
  const context = await newContext(browser);
  const page = await context.newPage();
  await singleSignOn(page, A_URL, first!.login);
  await expect(page).toHaveURL(new RegExp(`^${A_URL}/sign-in/refused`));
  await expect(page.getByRole('alert').filter({ hasText: first!.title })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to sign-in' })).toBeVisible();
  await expectNoSeriousViolations(page);
  // Not signed in: the dashboard sends the browser back to sign-in.
  const home = await context.request.get(`${A_URL}/`);
  expect(home.url()).toMatch(new RegExp(`^${A_URL}/sign-in`));
  await context.close();
  for (const { login, title } of others) {
    const api = await playwright.request.newContext();
    const refused = await singleSignOnOverHttp(api, A_URL, login);
    expect({ login, url: refused.url(), status: refused.status() }).toEqual({
      login,
      url: expect.stringMatching(new RegExp(`^${A_URL}/sign-in/refused`)),
      status: 200,
    });
    const html = await refused.text();
    expect(html, login).toContain(title);
    expect(html, login).toContain('Back to sign-in');
    const after = await api.get(`${A_URL}/`);
    expect(after.url(), login).toMatch(new RegExp(`^${A_URL}/sign-in`));
    await api.dispose();
  }
  expect(await count('staff_users')).toBe(usersBefore);
  expect(await count('staff_accounts')).toBe(accountsBefore);
  const { rows } = await database.query(`SELECT id FROM staff_users WHERE email = 'dora@example.com'`);
  const { rows: vera } = await database.query(`SELECT id FROM staff_users WHERE email = 'vera@example.com'`);
  expect(await refusalsAudited()).toEqual([
    { reason: 'unknown', actorId: null, targetId: null },
    { reason: 'unverified', actorId: null, targetId: null },
    { reason: 'unverified', actorId: null, targetId: null },
    { reason: 'disabled', actorId: null, targetId: rows[0].id },
    { reason: 'other_identity', actorId: null, targetId: vera[0].id },
  ]);
  const { rows: identities } = await database.query(`SELECT account_id AS "accountId" FROM staff_accounts WHERE user_id = $1`, [
    vera[0].id,
  ]);
  expect(identities).toEqual([{ accountId: 'vera' }]);
  const { rows: details } = await database.query(`SELECT details::text AS text FROM audit_entries WHERE action = 'sso.refused'`);
  expect(details.map((row) => row.text).join(' ')).not.toMatch(/@example\.com|stranger|dora|vera/i);
});

test('where PASSWORD_SIGN_IN=off the page offers only single sign-on, whose button works without JavaScript (the CSP lets the form lead to the provider), and the sign-in completes on the other instance; the password action refuses on the server', async ({
  browser,
  request,
}) => {
  await test.step('the page offers only single sign-on', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${B_URL}/sign-in`);
    await expect(page.getByRole('button', { name: LABEL })).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveCount(0);
    await expect(page.getByLabel('E-mail address')).toHaveCount(0);
    await expectNoSeriousViolations(page);
    await context.close();
  });

  await test.step('without JavaScript, a sign-in started here completes when the provider sends it back to the other instance', async () => {
    const context = await newContext(browser, { javaScriptEnabled: false });
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    const callbacks: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('/api/auth/callback/')) callbacks.push(new URL(sent.url()).origin);
    });
    const response = await page.goto(`${B_URL}/sign-in`);
    expect(response?.headers()['content-security-policy']).toContain(`form-action 'self' ${provider.issuer}`);
    // Started on B (its server action stores the state), the callback lands on A (the deployment's APP_URL).
    await page.getByRole('button', { name: LABEL }).click();
    await signInAtProvider(page, 'carl');
    await expect(page.getByTestId('signed-in-as')).toHaveText('Carl Crossing');
    expect(callbacks).toEqual([A_URL]);
    expect(blocked).toEqual([]);
    // One session for the whole deployment: B knows it as well.
    const home = await context.request.get(`${B_URL}/`);
    expect(home.url()).toBe(`${B_URL}/`);
    expect(await home.text()).toContain('Carl Crossing');
    await context.close();
  });

  await test.step('the password action, posted by hand with a right password, refuses here and works on the other instance', async () => {
    // The password action still exists in the build: posted by hand with a right password, it refuses.
    const call = passwordSignIn('ada@example.com');
    const response = await replayAction(request, B_URL, call, { origin: B_URL });
    expect(await response.text()).toContain('Sign-in with a password is turned off here');
    expect(response.headers()['set-cookie'] ?? '').not.toContain('session_token');

    // The same password works where password sign-in is on.
    const allowed = await replayAction(request, A_URL, call, { origin: A_URL });
    expect(allowed.headers()['set-cookie'] ?? '').toContain('vdesk.session_token=');
  });
});

test('an expired invitation says when it expired and to ask for a new one; the staff list says so; a new link works', async ({
  browser,
  playwright,
}) => {
  // Time passes: the invitation's end moves into the past, in the shared database.
  const moved = await database.query(
    `update staff_invitations set expires_at = timestamptz '2026-01-02 09:30:00+00'
       where user_id = (select id from staff_users where email = $1)`,
    [ERIN.email],
  );
  expect(moved.rowCount).toBe(1);

  const ownContext = await newContext(browser);
  const own = await ownContext.newPage();
  await own.goto(`${A_URL}${erinInvitation}`);
  await expect(own.getByRole('heading', { name: 'Invitation expired' })).toBeVisible();
  await expect(own.getByText(/^This invitation expired on .*2026.*\. Ask an administrator for a new one\.$/)).toBeVisible();
  await expect(own.getByLabel('New password')).toHaveCount(0);
  await expectNoSeriousViolations(own, 'expired invitation');

  const api = await adminOnA(playwright);
  const adminContext = await newContext(browser, { storageState: await api.storageState() });
  await api.dispose();
  const admin = await adminContext.newPage();
  await admin.goto(`${A_URL}/staff`);
  const row = admin.getByRole('row').filter({ hasText: ERIN.email });
  await expect(row.getByTestId('invitation-state')).toHaveText('Invitation expired — issue a new link');
  await row.getByRole('button', { name: `New invitation link for ${ERIN.name}` }).click();
  const newLink = await row.getByTestId('invitation-link').inputValue();
  expect(newLink).toMatch(new RegExp(`^${A_URL}/invitation/[A-Za-z0-9_-]{43}$`));
  await adminContext.close();

  await own.goto(newLink);
  await expect(own.getByRole('heading', { name: `Welcome, ${ERIN.name}. Set your password` })).toBeVisible();
  await setPasswordHere(own, ERIN, PASSWORD);
  await ownContext.close();
});

test('the break-glass link signs an administrator in once, with the provider down and password sign-in off, then says used', async ({
  browser,
}) => {
  expect(() => cli(['sign-in-link', 'otto@example.com'])).toThrow(/not an administrator/);

  const { link } = cli<{ link: string }>(['sign-in-link', 'ada@example.com'], { APP_URL: B_URL });
  expect(link).toMatch(new RegExp(`^${B_URL}/sign-in/link\\?token=[A-Za-z0-9_-]{43}$`));
  await provider.stop();

  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto(link);
  await expectNoSeriousViolations(page);
  // Used without JavaScript: the page's form posts as plain HTML, with the Origin its referrer
  // policy lets the browser send (only a browser decides that).
  const plainContext = await newContext(browser, { javaScriptEnabled: false });
  const plain = await plainContext.newPage();
  await plain.goto(link);
  await plain.getByRole('button', { name: 'Sign in with this link' }).click();
  await expect(plain.getByTestId('signed-in-as')).toHaveText('Ada Admin');
  await expect(plain.getByTestId('signed-in-as').locator('..')).toContainText('Administrator');

  // Opened again, in the first browser (which did not use it): used, on either instance.
  await page.goto(link.replace(B_URL, A_URL));
  await expect(page.getByRole('alert').filter({ hasText: 'This sign-in link has been used already' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with this link' })).toHaveCount(0);
  await expectNoSeriousViolations(page);

  const { rows } = await database.query(
    `SELECT action, actor_id AS "actorId", target_id AS "targetId" FROM audit_entries WHERE action LIKE 'sign_in_link.%' ORDER BY at, id`,
  );
  const { rows: admin } = await database.query(`SELECT id FROM staff_users WHERE email = 'ada@example.com'`);
  expect(rows).toEqual([
    { action: 'sign_in_link.issued', actorId: null, targetId: admin[0].id },
    { action: 'sign_in_link.used', actorId: admin[0].id, targetId: admin[0].id },
  ]);
  await context.close();
  await plainContext.close();
});
