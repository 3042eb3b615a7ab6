// Staff access (docs/quality.md): nothing reaches the verification service without an authorized
// session, each role gets exactly its pages and actions, server actions refuse other origins,
// and signing out ends the session on the server.
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type APIRequest, type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { createStaffUsers } from './kit/cli.mjs';
import { type CountingUpstream, startCountingUpstream } from './support/counting-upstream';
import { newDataDir } from './support/data-dirs';
import { fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { type NextServer, startNextServer } from './support/next-server';
import { createOverHttp, headingsOf, registerRowsNamed, signInOverHttp, textOf } from './support/over-http';
import { portFor } from './support/ports';
import {
  type CapturedAction,
  formActionCall,
  formDataActionCall,
  interceptServerActions,
  listServerActions,
  plainActionCall,
  replayAction,
} from './support/server-actions';
import { type Role, STAFF, storageStateOf } from './support/staff';

const ROLES: Role[] = ['viewer', 'operator', 'admin'];
const EVIL_ORIGIN = 'http://evil.example';
// The action's own answers (lib/auth/guards.ts DENIAL_MESSAGES): seeing them proves the replay
// reached the action and the action refused it, rather than failing for some unrelated reason.
const NO_SESSION = 'Nothing was done. Sign in again';
const NOT_ALLOWED = 'Nothing was done. Ask an administrator if you need this permission.';
// Playwright Test gives manually created contexts the project's storage state (the operator's
// cookies, which are not port-specific); a context meant to start signed out says so.
const SIGNED_OUT = { cookies: [], origins: [] };
const CREATED = 'Verification request created successfully.';

/** Runs `act` and returns the one server-action request it sent (aborted before the server saw it). */
async function captureOne(captured: CapturedAction[], act: () => Promise<void>): Promise<CapturedAction> {
  const before = captured.length;
  await act();
  await expect.poll(() => captured.length, { message: 'the browser sent no server-action request' }).toBe(before + 1);
  return captured[before]!;
}

/** Captures, as the signed-in user of `context`, the create-verification request for `name`. */
async function captureCreate(context: BrowserContext, name: string): Promise<CapturedAction> {
  const page = await context.newPage();
  const { captured, stop } = await interceptServerActions(page);
  await openCreateForm(page);
  await fillBasics(page, { name, email: 'someone@example.com' });
  const create = await captureOne(captured, () => submitCreate(page));
  await stop();
  await page.close();
  return create;
}

const mainBaseUrl = () => test.info().project.use.baseURL!;

/** Makes the tests of the enclosing describe run signed in as `role` (the run's seeded sessions). */
const signedInAs = (role: Role) => test.use({ storageState: storageStateOf(role) });

// ───────────────────────────────────────────────────────────────────────────────────────────────

test.describe('no entry point reaches the service without an authorized session', () => {
  test.describe.configure({ mode: 'serial' });

  // E2E_PORT + 11 unless told otherwise (+11…+19 are free for extra servers).
  const PORT = Number(process.env.E2E_ISOLATED_PORT ?? portFor(11));
  const CAPTURED_NAME = uniqueName('Captured Person');
  const NEW_STAFF_EMAIL = `mallory.${Math.random().toString(36).slice(2, 8)}@example.com`;
  let upstream: CountingUpstream;
  let server: NextServer;
  let dataDir: string;
  let admin: BrowserContext;
  let adminPage: Page;
  /** Requests a real browser sent, keyed by what they do. */
  const captures: Record<string, CapturedAction> = {};

  test.beforeAll(async ({ browser, playwright }) => {
    test.setTimeout(180_000);
    upstream = await startCountingUpstream();
    dataDir = newDataDir('access');
    // The CLI refuses while a server holds the directory: accounts first, then the server.
    createStaffUsers(
      dataDir,
      ROLES.map((role) => ({ ...STAFF[role], role })),
    );
    server = await startNextServer({
      port: PORT,
      dataDir,
      env: {
        APP_URL: `http://localhost:${PORT}`,
        VERIFICATION_API_URL: upstream.baseUrl,
        VERIFICATION_API_KEY: 'test-key',
        SANDBOX: 'off',
      },
    });

    // Capture each action as the browser really sends it. The admin sees every form; every
    // capture is aborted in the browser, so none of these reaches the server.
    admin = await browser.newContext({ baseURL: server.url, storageState: SIGNED_OUT });
    adminPage = await admin.newPage();
    let interception = await interceptServerActions(adminPage);
    await adminPage.goto('/sign-in');
    await adminPage.getByLabel('E-mail address').fill(STAFF.admin.email);
    await adminPage.getByLabel('Password').fill('not-the-password-123');
    captures.signIn = await captureOne(interception.captured, () => adminPage.getByRole('button', { name: 'Sign in' }).click());
    await interception.stop();

    // Signed in over HTTP: the sign-in page is not what this describe is about.
    const adminSession = await signInOverHttp(playwright.request, server.url, STAFF.admin);
    await admin.addCookies((await adminSession.storageState()).cookies);
    await adminSession.dispose();
    interception = await interceptServerActions(adminPage);
    await openCreateForm(adminPage);
    await fillBasics(adminPage, { name: CAPTURED_NAME, email: 'captured@example.com' });
    captures.createVerification = await captureOne(interception.captured, () => submitCreate(adminPage));

    await adminPage.goto('/staff');
    await adminPage.getByLabel('Name', { exact: true }).fill('Mallory Newcomer');
    await adminPage.getByLabel('E-mail address').fill(NEW_STAFF_EMAIL);
    await adminPage.getByLabel('Role', { exact: true }).selectOption('admin');
    captures.createStaff = await captureOne(interception.captured, () => adminPage.getByRole('button', { name: 'Create account' }).click());

    await adminPage.goto('/staff');
    await adminPage.getByLabel(`Role of ${STAFF.operator.name}`).selectOption('admin');
    captures.changeRole = await captureOne(interception.captured, () =>
      adminPage.getByRole('button', { name: `Change role of ${STAFF.operator.name}` }).click(),
    );

    await adminPage.goto('/staff');
    await adminPage.getByRole('link', { name: `Disable ${STAFF.viewer.name}` }).click();
    captures.disableStaff = await captureOne(interception.captured, () =>
      adminPage
        .getByRole('dialog')
        .getByRole('button', { name: `Disable ${STAFF.viewer.name}` })
        .click(),
    );
    await interception.stop();

    // Without JavaScript the create form posts natively: a second way into the same action.
    const noJs = await browser.newContext({ baseURL: server.url, javaScriptEnabled: false, storageState: await admin.storageState() });
    const noJsPage = await noJs.newPage();
    interception = await interceptServerActions(noJsPage);
    await openCreateForm(noJsPage);
    await fillBasics(noJsPage, { name: CAPTURED_NAME, email: 'captured@example.com' });
    captures.createVerificationNoJs = await captureOne(interception.captured, () => submitCreate(noJsPage));
    await noJs.close();
  });

  test.afterAll(async () => {
    await admin?.close();
    await server?.stop();
    await upstream?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const WEBHOOK_RECEIVER = '/api/webhooks/verification-service';

  test('pages, route handlers and sandbox routes turn a caller without a session away', async ({ playwright }) => {
    const anonymous = await playwright.request.newContext({ baseURL: server.url, maxRedirects: 0, storageState: SIGNED_OUT });
    const id = randomUUID();

    // Every route of the build is classified, so a new one cannot slip past this test: dashboard
    // pages send to sign-in, /api routes answer 401, sandbox routes are gone (SANDBOX=off), and
    // the few public ones are named. Anything else fails here until someone decides.
    const manifest = JSON.parse(readFileSync(path.resolve('.next/app-path-routes-manifest.json'), 'utf8')) as Record<string, string>;
    const withParams = (route: string) => route.replace(/\[[^\]]+\]/g, id);
    // Health and readiness are public by design (no details); readiness does probe the service,
    // so it is not called here, where the upstream must see no call at all.
    // The single sign-on pages and callback are public too: the refusal page only explains, the
    // break-glass link's token is its credential, and only the provider's redirect completes the callback.
    const PUBLIC = new Set([
      '/sign-in',
      '/sign-in/refused',
      '/sign-in/link',
      '/sign-in/two-factor',
      '/api/auth/callback/[providerId]',
      '/sign-out',
      '/setup',
      '/invitation/[token]',
      '/icon.svg',
      '/_not-found',
      '/_global-error',
      '/api/health',
      '/api/ready',
    ]);
    const dashboardPages: string[] = [];
    const apiRoutes: string[] = [];
    const sandboxRoutes: string[] = [];
    const unclassified: string[] = [];
    for (const [source, route] of Object.entries(manifest)) {
      if (source.startsWith('/(dashboard)/') && source.endsWith('/page')) dashboardPages.push(withParams(route));
      else if (route === WEBHOOK_RECEIVER || PUBLIC.has(route))
        continue; // signature-authenticated (checked below) or public
      else if (route.startsWith('/api/')) apiRoutes.push(withParams(route));
      else if (route.startsWith('/v1/') || route.startsWith('/sandbox/')) sandboxRoutes.push(withParams(route));
      else if (!PUBLIC.has(route)) unclassified.push(route);
    }
    expect(unclassified, 'routes nobody decided about').toEqual([]);
    // What docs/quality.md names must be among them (guards against a manifest this code misreads).
    expect(dashboardPages).toEqual(
      expect.arrayContaining(['/', '/verifications', '/verifications/new', `/verifications/${id}`, '/staff', '/audit']),
    );
    expect(apiRoutes).toContain(`/api/verifications/${id}`);
    expect(sandboxRoutes).toEqual(expect.arrayContaining(['/v1/verifications/new', `/v1/verifications/${id}`]));

    for (const pagePath of [...dashboardPages, '/verifications?id=x']) {
      const response = await anonymous.get(pagePath);
      expect.soft([303, 307], `${pagePath} redirects`).toContain(response.status());
      expect.soft(new URL(response.headers().location ?? '/nowhere', server.url).pathname, `${pagePath} goes to sign-in`).toBe('/sign-in');
      // The client-side navigation payload must not carry the page either.
      // proxy.ts answers it with an HTTP redirect; a page's own redirect would be in the payload.
      const flight = await anonymous.get(pagePath, { headers: { RSC: '1' } });
      const payload = await flight.text();
      const redirected =
        ([303, 307].includes(flight.status()) && new URL(flight.headers().location ?? '/nowhere', server.url).pathname === '/sign-in') ||
        payload.includes('NEXT_REDIRECT;replace;/sign-in');
      expect.soft(redirected, `${pagePath} as RSC goes to sign-in`).toBe(true);
      expect.soft(payload, `${pagePath} as RSC`).not.toContain('signed-in-as');
    }

    // The webhook receiver takes no session: only a valid signature. Unsigned → refused, and
    // (checked at the end of this describe) no call reaches the service.
    const unsigned = await anonymous.post(WEBHOOK_RECEIVER, {
      headers: { 'Content-Type': 'application/json' },
      data: { type: 'verification.completed', timestamp: new Date().toISOString(), data: { verificationId: id, status: 'completed' } },
    });
    // 503 when no WEBHOOK_SECRET is configured (as here, SANDBOX=off): refused, sender keeps retrying.
    expect.soft([400, 401, 503], 'unsigned webhook refused').toContain(unsigned.status());
    expect.soft((await anonymous.get(WEBHOOK_RECEIVER)).status(), 'webhook receiver is POST only').toBe(405);

    for (const route of apiRoutes) {
      const read = await anonymous.get(route);
      expect.soft(read.status(), route).toBe(401);
      expect.soft(await read.json(), route).toEqual({ error: 'Sign in to continue.' });
    }

    // SANDBOX=off: the embedded service is gone, even for a caller holding the API key.
    const bearer = { Authorization: 'Bearer test-key' };
    const sandboxCalls = [
      anonymous.post('/v1/verifications/new', {
        headers: bearer,
        data: { name: 'Nobody', email: 'nobody@example.com', chosenPurpose: 'ensuring_compliance', language: 'en' },
      }),
      ...sandboxRoutes.map((route) => anonymous.get(route, { headers: bearer })),
    ];
    for (const response of await Promise.all(sandboxCalls)) expect.soft(response.status(), response.url()).toBe(404);

    // The public pages still answer (so the refusals above are not a broken server).
    const signInPage = await anonymous.get('/sign-in');
    expect(signInPage.status()).toBe(200);
    expect(await signInPage.text()).toContain('Sign in');
    expect((await anonymous.get('/setup')).status()).toBe(404); // accounts exist: setup is closed

    expect(upstream.calls, 'requests that reached the upstream').toEqual([]);
    await anonymous.dispose();
  });

  test('every server action of the build, replayed without a cookie, is refused and changes nothing', async ({ playwright }) => {
    const actions = listServerActions();
    test.info().annotations.push({ type: 'server actions', description: actions.map((a) => `${a.name} (${a.file}) ${a.id}`).join('; ') });
    const idOf = (name: string) => {
      const action = actions.find((a) => a.name === name);
      expect(action, `server action ${name} in the build`).toBeDefined();
      return action!.id;
    };
    // The captures name the ids the browser really used; they must be the build's.
    expect(captures.createVerification!.actionId).toBe(idOf('createVerificationAction'));
    expect(captures.createVerificationNoJs!.actionId).toBe(idOf('createVerificationAction'));
    expect(captures.createStaff!.actionId).toBe(idOf('createStaffAction'));
    expect(captures.changeRole!.actionId).toBe(idOf('changeRoleAction'));
    expect(captures.disableStaff!.actionId).toBe(idOf('disableStaffAction'));
    expect(captures.signIn!.actionId).toBe(idOf('signInAction'));

    // No browser can send these two here (no link to copy yet; setup is closed), so they are
    // written by hand in the encoding the browser uses.
    const handcrafted = {
      // The sandbox's person-page actions are public (the link's token is the credential); with
      // the sandbox off they must do nothing at all.
      completeAsPerson: plainActionCall(idOf('completeVerificationAction'), `/sandbox/verify/${'t'.repeat(43)}`, []),
      failAsPerson: plainActionCall(idOf('failVerificationAction'), `/sandbox/verify/${'t'.repeat(43)}`, []),
      recordLinkCopied: plainActionCall(idOf('recordLinkCopiedAction'), '/', [randomUUID()]),
      // Asked by the create page when its tab is shown again; a constant answer either way.
      checkCreateAccess: plainActionCall(idOf('checkCreateAccessAction'), '/verifications/new', []),
      // Single sign-on is not configured on this server, and nobody issued this link.
      startSingleSignOn: formActionCall(idOf('startSingleSignOnAction'), '/sign-in', { status: 'idle', values: {} }, { next: '/' }),
      signInWithLink: formActionCall(
        idOf('signInWithLinkAction'),
        '/sign-in/link',
        { status: 'idle', values: {} },
        { token: 'a'.repeat(43) },
      ),
      setup: formActionCall(
        idOf('setupAction'),
        '/setup',
        { status: 'idle', values: { name: '', email: '' } },
        {
          token: 'a'.repeat(43),
          name: 'Mallory Setup',
          email: 'mallory.setup@example.com',
          password: 'mallory-password-123',
          confirmPassword: 'mallory-password-123',
        },
      ),
      // The account page's and a disabled row's forms: their fields, as a browser would post them.
      changePassword: formActionCall(
        idOf('changePasswordAction'),
        '/account',
        { status: 'idle', values: { endOtherSessions: true } },
        {
          currentPassword: STAFF.viewer.password,
          newPassword: 'mallory took this account',
          confirmPassword: 'mallory took this account',
          endOtherSessions: 'on',
        },
      ),
      endOtherSessions: formActionCall(idOf('endOtherSessionsAction'), '/account', { status: 'idle', values: {} }, {}),
      // Checking the audit chain now: administrators only.
      checkAuditChain: formActionCall(idOf('checkAuditChainAction'), '/audit', { status: 'idle', values: {} }, {}),
      enableStaff: formActionCall(idOf('enableStaffAction'), '/staff', { status: 'idle', values: {} }, { userId: randomUUID() }),
      // Two-factor: one's own set-up and an administrator's reset need a session; the code prompt is
      // public, and without the password step's signed cookie a code leads nowhere.
      enrolTwoFactor: formActionCall(
        idOf('enrolTwoFactorAction'),
        '/account/two-factor',
        { status: 'idle', values: {} },
        { step: 'password', password: STAFF.viewer.password, code: '', totpURI: '', proof: '' },
      ),
      turnOffTwoFactor: formActionCall(
        idOf('turnOffTwoFactorAction'),
        '/account/two-factor',
        { status: 'idle', values: {} },
        { password: STAFF.viewer.password },
      ),
      resetTwoFactor: formActionCall(idOf('resetTwoFactorAction'), '/staff', { status: 'idle', values: {} }, { userId: randomUUID() }),
      verifySignInCode: formActionCall(
        idOf('verifySignInCodeAction'),
        '/sign-in/two-factor',
        { status: 'idle', values: { code: '' } },
        { code: '123456' },
      ),
      verifySignInBackupCode: formActionCall(
        idOf('verifySignInBackupCodeAction'),
        '/sign-in/two-factor',
        { status: 'idle', values: { code: '' } },
        { code: 'abcde-12345' },
      ),
      // An administrator's action (no session: refused), and the invitation page's public one
      // (a token that was never issued: nobody gets a password or a session).
      issueInvitation: formActionCall(idOf('issueInvitationAction'), '/staff', { status: 'idle', values: {} }, { userId: randomUUID() }),
      // The name review's form on a detail page: operators and administrators only.
      recordNameReview: formActionCall(
        idOf('recordNameReviewAction'),
        `/verifications/${randomUUID()}`,
        { status: 'idle', values: { verificationId: '', decision: '', note: '' } },
        { verificationId: randomUUID(), decision: 'different_person', note: 'Mallory says so.' },
      ),
      // Taking a request, giving it to a colleague or handing it back: operators and administrators only.
      changeAssignment: formActionCall(
        idOf('changeAssignmentAction'),
        `/verifications/${randomUUID()}`,
        { status: 'idle', values: { verificationId: '', intent: '', to: '', expected: '' } },
        { verificationId: randomUUID(), intent: 'take', to: '', expected: '' },
      ),
      // An internal note on a request: operators and administrators only.
      addNote: formActionCall(
        idOf('addNoteAction'),
        `/verifications/${randomUUID()}`,
        { status: 'idle', values: { verificationId: '', text: '', corrects: '' } },
        { verificationId: randomUUID(), text: 'Mallory was here.', corrects: '' },
      ),
      // The language switcher: public by design (the pages before sign-in have it); without a
      // session it sets this browser's cookie and writes nothing. English: the answers after it are
      // read in this context's language.
      chooseLanguage: formDataActionCall(idOf('chooseLanguageAction'), '/sign-in', { language: 'en' }),
      acceptInvitation: formActionCall(
        idOf('acceptInvitationAction'),
        `/invitation/${'a'.repeat(43)}`,
        { status: 'idle', values: {} },
        { token: 'a'.repeat(43), password: 'mallory-password-123', confirmPassword: 'mallory-password-123' },
      ),
    };

    const before = await observableState(admin.request);

    const anonymous = await playwright.request.newContext({ baseURL: server.url, storageState: SIGNED_OUT });
    const codeLeadsNowhere = (_s: number, body: string, setCookie: string) => {
      expect(body).toContain('Sign in again with your e-mail address and password.');
      expect(setCookie).not.toContain('session_token=');
    };
    const expectations: Array<[CapturedAction, (status: number, body: string, setCookie: string) => void]> = [
      [captures.createVerification!, (_s, body) => expect(body).toContain(NO_SESSION)],
      [captures.createStaff!, (_s, body) => expect(body).toContain(NO_SESSION)],
      [captures.changeRole!, (_s, body) => expect(body).toContain(NO_SESSION)],
      [captures.disableStaff!, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.changePassword, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.endOtherSessions, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.checkAuditChain, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.enableStaff, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.enrolTwoFactor, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.turnOffTwoFactor, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.resetTwoFactor, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.verifySignInCode, codeLeadsNowhere],
      [handcrafted.verifySignInBackupCode, codeLeadsNowhere],
      [handcrafted.recordLinkCopied, (_s, body) => expect(body).toContain('{"ok":false}')],
      [
        handcrafted.checkCreateAccess,
        (status, body) => {
          expect(status).toBe(200);
          expect(body).toContain('"allowed":false');
          expect(body).toContain('Your session has ended');
        },
      ],
      [handcrafted.completeAsPerson, (status) => expect(status, 'sandbox off: nothing to complete').not.toBe(200)],
      [handcrafted.failAsPerson, (status) => expect(status, 'sandbox off: nothing to fail').not.toBe(200)],
      // Public by design, but a wrong password signs nobody in and a closed setup creates nobody.
      [
        captures.signIn!,
        (_s, body, setCookie) => {
          expect(body).toContain('Incorrect e-mail address or password.');
          expect(setCookie).not.toContain('session_token=');
        },
      ],
      [handcrafted.setup, (_s, body) => expect(body).toContain('This setup link is no longer valid')],
      [handcrafted.startSingleSignOn, (_s, body) => expect(body).toContain('Single sign-on is not set up for this dashboard')],
      [
        handcrafted.signInWithLink,
        (_s, body, setCookie) => {
          expect(body).toContain('This is not a valid sign-in link');
          expect(setCookie).not.toContain('session_token=');
        },
      ],
      [handcrafted.issueInvitation, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.recordNameReview, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.changeAssignment, (_s, body) => expect(body).toContain(NO_SESSION)],
      [handcrafted.addNote, (_s, body) => expect(body).toContain(NO_SESSION)],
      [
        handcrafted.chooseLanguage,
        (status, _b, setCookie) => {
          expect(status).toBe(200);
          expect(setCookie).toContain('vd-language=en');
          expect(setCookie).not.toContain('session_token=');
        },
      ],
      [
        handcrafted.acceptInvitation,
        (_s, body, setCookie) => {
          expect(body).toContain('This invitation link is not valid');
          expect(setCookie).not.toContain('session_token=');
        },
      ],
      // The no-JavaScript post: whatever the page then does, nothing may be created (checked below).
      [
        captures.createVerificationNoJs!,
        (status, body) => {
          expect(body).not.toContain(CREATED);
          expect(status === 303 || status === 307 || body.includes(NO_SESSION), `answered ${status}`).toBe(true);
        },
      ],
    ];
    for (const [action, check] of expectations) {
      const response = await replayAction(anonymous, server.url, action, { origin: server.url });
      const setCookie = response
        .headersArray()
        .filter((h) => h.name.toLowerCase() === 'set-cookie')
        .map((h) => h.value)
        .join('\n');
      await test.step(`${actions.find((a) => a.id === action.actionId)?.name} (${action.kind}) → ${response.status()}`, async () =>
        check(response.status(), await response.text(), setCookie));
    }
    await anonymous.dispose();

    // Every action in the build was tried.
    expect(new Set(expectations.map(([action]) => action.actionId))).toEqual(new Set(actions.map((a) => a.id)));

    expect(await observableState(admin.request)).toEqual({ ...before, failedSignIns: before.failedSignIns + 1 });
    expect(upstream.calls, 'requests that reached the upstream').toEqual([]);
  });

  test("a viewer's create is refused, an operator's reaches the counting upstream; an operator's new account is refused, an administrator's made", async ({
    playwright,
  }) => {
    const viewer = await signInOverHttp(playwright.request, server.url, STAFF.viewer);
    const refused = await (await replayAction(viewer, server.url, captures.createVerification!, { origin: server.url })).text();
    expect(refused).toContain('Not allowed for your role');
    expect(refused).toContain(NOT_ALLOWED);
    expect(refused).not.toContain(CREATED);
    const refusedNoJs = await replayAction(viewer, server.url, captures.createVerificationNoJs!, { origin: server.url });
    expect(await refusedNoJs.text()).not.toContain(CREATED);
    // The create page's access check, authorized as the create is: refused to a viewer too.
    const checkAccess = plainActionCall(
      listServerActions().find((a) => a.name === 'checkCreateAccessAction')!.id,
      '/verifications/new',
      [],
    );
    const viewerAccess = await (await replayAction(viewer, server.url, checkAccess, { origin: server.url })).text();
    expect(viewerAccess).toContain('"allowed":false');
    expect(viewerAccess).toContain('Not allowed for your role');
    await viewer.dispose();
    expect(upstream.calls, 'requests that reached the upstream').toEqual([]);
    expect(await registerRowsNamed(admin.request, CAPTURED_NAME)).toBe(0);

    // The same requests with an operator's session go through: the counter does count, and
    // both captures were requests the server accepts when it should.
    const operator = await signInOverHttp(playwright.request, server.url, STAFF.operator);
    expect(await (await replayAction(operator, server.url, checkAccess, { origin: server.url })).text()).toContain('{"allowed":true}');
    const created = await replayAction(operator, server.url, captures.createVerification!, { origin: server.url });
    expect(await created.text()).toContain(CREATED);
    await expect.poll(() => upstream.calls.length).toBeGreaterThanOrEqual(1);
    expect(upstream.calls[0]).toMatchObject({ method: 'POST', path: '/v1/verifications/new', authorization: 'Bearer test-key' });
    expect(JSON.parse(upstream.calls[0]!.body)).toMatchObject({ name: CAPTURED_NAME });
    expect(await registerRowsNamed(admin.request, CAPTURED_NAME)).toBe(1);

    const createdNoJs = await replayAction(operator, server.url, captures.createVerificationNoJs!, { origin: server.url });
    expect(createdNoJs.status()).toBe(200);
    expect(await createdNoJs.text()).toContain(CREATED);
    expect(upstream.calls.filter((call) => call.method === 'POST')).toHaveLength(2);
    expect(await registerRowsNamed(admin.request, CAPTURED_NAME)).toBe(2);

    // An operator replaying the administrator's create-account request: refused, nobody added;
    // the administrator's own replay of it makes the account.
    const staffPage = async () => (await admin.request.get('/staff', { maxRedirects: 0 })).text();
    expect(await (await replayAction(operator, server.url, captures.createStaff!, { origin: server.url })).text()).toContain(NOT_ALLOWED);
    const afterRefusal = await staffPage();
    expect(headingsOf(afterRefusal)).toContain('Staff');
    expect(afterRefusal).not.toContain(NEW_STAFF_EMAIL);
    expect(await (await replayAction(admin.request, server.url, captures.createStaff!, { origin: server.url })).text()).toContain(
      '"status":"created"',
    );
    expect(await staffPage()).toContain(NEW_STAFF_EMAIL);
    await operator.dispose();
  });

  /** What an administrator can see that any of the actions would have changed (the pages as served). */
  async function observableState(api: APIRequestContext) {
    const page = async (path: string) => {
      const response = await api.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(200);
      return response.text();
    };
    const tables = [...(await page('/staff')).matchAll(/<tbody\b[^>]*>([\s\S]*?)<\/tbody>/g)].map(([, body]) => body!);
    const staff = tables.flatMap((body) =>
      [...body.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
        [...row!.matchAll(/<td\b[^>]*>([\s\S]*?)<\/td>/g)].slice(0, 2).map(([, cell]) => textOf(cell!)),
      ),
    );
    expect(staff.length).toBe(3); // the three accounts the CLI created
    const audit = await page('/audit');
    expect(audit).toContain('data-testid="audit-entries"');
    const actions = [...audit.matchAll(/<tr\b[^>]*\bdata-action="([^"]*)"/g)].map(([, action]) => action!);
    expect(actions.length, 'audit entries on the page').toBeGreaterThan(0);
    const recent = [...(await page('/')).matchAll(/href="\/verifications\/([0-9a-f-]{36})"/g)].map(([, id]) => id!).sort();
    return {
      staff,
      audit: actions.filter((action) => action !== 'sign_in.failed').sort(),
      // Kept apart: the replayed wrong-password sign-in must add exactly one, which also shows
      // that this view is live rather than a stale page.
      failedSignIns: actions.filter((action) => action === 'sign_in.failed').length,
      recent,
    };
  }
});

// ───────────────────────────────────────────────────────────────────────────────────────────────

/** One shareable-link request created by the operator (over HTTP), shared by the tests that need one. */
let sharedRequest: Promise<{ id: string; name: string }> | undefined;
function operatorRequest(playwright: { request: APIRequest }): Promise<{ id: string; name: string }> {
  sharedRequest ??= (async () => {
    const api = await playwright.request.newContext({ baseURL: mainBaseUrl(), storageState: storageStateOf('operator') });
    const name = uniqueName('Role Matrix');
    const { id } = await createOverHttp(api, mainBaseUrl(), { name, shareableLink: true });
    await api.dispose();
    return { id, name };
  })();
  return sharedRequest;
}

test.describe('role matrix', () => {
  let request: { id: string; name: string };
  test.beforeAll(async ({ playwright }) => {
    request = await operatorRequest(playwright);
  });

  const PAGES: Array<{ path: () => string; heading: () => string; allowed: Role[] }> = [
    { path: () => '/', heading: () => 'Verification requests', allowed: ['viewer', 'operator', 'admin'] },
    { path: () => `/verifications/${request.id}`, heading: () => request.name, allowed: ['viewer', 'operator', 'admin'] },
    { path: () => '/verifications/new', heading: () => 'New verification request', allowed: ['operator', 'admin'] },
    { path: () => '/staff', heading: () => 'Staff', allowed: ['admin'] },
    { path: () => '/audit', heading: () => 'Audit trail', allowed: ['admin'] },
  ];

  for (const role of ROLES) {
    test.describe(`as ${role}`, () => {
      signedInAs(role);

      // Over HTTP: the status and the page's own heading are what is checked, as the server sends them.
      test('pages are shown or refused with 403; the read route answers', async ({ request: api }) => {
        for (const entry of PAGES) {
          await test.step(`${entry.path()} ${entry.allowed.includes(role) ? 'allowed' : 'refused'}`, async () => {
            const response = await api.get(entry.path(), { maxRedirects: 0 });
            const html = await response.text();
            const headings = headingsOf(html);
            if (entry.allowed.includes(role)) {
              expect(response.status()).toBe(200);
              expect(headings).toContain(entry.heading());
            } else {
              // Refused: none of the page is sent (what the browser shows instead is checked below).
              expect(response.status()).toBe(403);
              expect(headings).not.toContain(entry.heading());
            }
          });
        }
        const read = await api.get(`/api/verifications/${request.id}`);
        expect(read.status()).toBe(200);
        expect(await read.json()).toMatchObject({ inputted_name: request.name, status: 'pending' });
      });

      test('the interface offers only what the role may do', async ({ page }) => {
        await page.goto('/');
        await expect(page.getByTestId('signed-in-as')).toHaveText(STAFF[role].name);
        // The request is listed for everyone; its link only for those who may copy it.
        await expect(page.getByRole('link', { name: request.name, exact: true })).toBeVisible();
        const nav = page.getByRole('navigation', { name: 'Main' });
        const expected = {
          newRequest: role !== 'viewer',
          copyLink: role !== 'viewer',
          staff: role === 'admin',
          audit: role === 'admin',
        };
        await expect(nav.getByRole('link', { name: 'Requests' })).toBeVisible();
        await expect(page.getByRole('link', { name: 'New request' })).toHaveCount(expected.newRequest ? 1 : 0);
        await expect(page.getByRole('button', { name: `Copy link for ${request.name}` })).toHaveCount(expected.copyLink ? 1 : 0);
        // Staff accounts are an administrator's, in the administration group, not the main menu.
        await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);
        await expect(page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Staff' })).toHaveCount(
          expected.staff ? 1 : 0,
        );
        await expect(nav.getByRole('link', { name: 'Audit trail' })).toHaveCount(expected.audit ? 1 : 0);

        // A page the role may not open (the administrator may open them all): refused, and said so.
        if (role !== 'admin') {
          const refused = await page.goto('/staff');
          expect(refused?.status()).toBe(403);
          await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not available for your role');
        }
      });
    });
  }
});

// ───────────────────────────────────────────────────────────────────────────────────────────────

test.describe('cross-origin server action', () => {
  signedInAs('operator');

  test('is refused from another origin, and works from our own', async ({ context }) => {
    const origin = new URL(mainBaseUrl()).origin;
    const name = uniqueName('Cross Origin');
    const create = await captureCreate(context, name);

    const forged = await replayAction(context.request, origin, create, { origin: EVIL_ORIGIN });
    expect(forged.ok(), `answered ${forged.status()}`).toBe(false);
    expect(await forged.text()).not.toContain(CREATED);
    expect(await registerRowsNamed(context.request, name)).toBe(0);

    const genuine = await replayAction(context.request, origin, create, { origin });
    expect(genuine.status()).toBe(200);
    expect(await genuine.text()).toContain(CREATED);
    expect(await registerRowsNamed(context.request, name)).toBe(1);
  });
});

// ───────────────────────────────────────────────────────────────────────────────────────────────

test.describe('sign-out', () => {
  signedInAs('admin');

  test('is refused from another origin; a real one ends the session on the server', async ({ request, browser, playwright }) => {
    const { id } = await operatorRequest(playwright);
    const base = mainBaseUrl();
    const origin = new URL(base).origin;
    const idOf = (action: string) => listServerActions().find((a) => a.name === action)!.id;

    // A dedicated account, so the shared sessions of the other tests stay valid: invited by the
    // administrator and accepted over HTTP (those pages are other specs' subject), which signs in.
    const name = uniqueName('Sam Signout');
    const email = `sam.${Math.random().toString(36).slice(2, 8)}@example.com`;
    const invite = formActionCall(
      idOf('createStaffAction'),
      '/staff',
      { status: 'idle', values: { name: '', email: '', role: 'viewer' } },
      { name, email, role: 'viewer' },
    );
    const invitation = await (await replayAction(request, base, invite, { origin })).text();
    const token = /\/invitation\/([A-Za-z0-9_-]{43})/.exec(invitation)?.[1];
    expect(token, `an invitation link in ${invitation.slice(0, 300)}`).toBeTruthy();
    const password = 'sam signout long password';
    const own = await playwright.request.newContext({ baseURL: base, storageState: SIGNED_OUT });
    const accept = formActionCall(
      idOf('acceptInvitationAction'),
      `/invitation/${token}`,
      { status: 'idle', values: {} },
      { token: token!, password, confirmPassword: password },
    );
    await replayAction(own, base, accept, { origin });
    const signedIn = await own.storageState();
    await own.dispose();

    const context = await browser.newContext({ baseURL: base, storageState: signedIn });
    const sessionCookies = await context.cookies();
    expect(sessionCookies.map((c) => c.name)).toContain('vdesk.session_token');
    const ownPage = await context.newPage();
    await ownPage.goto('/');
    await expect(ownPage.getByTestId('signed-in-as')).toHaveText(name);
    // The same cookie outside the browser, as someone who copied it would use it: it works now…
    const stolen = await playwright.request.newContext({
      baseURL: base,
      maxRedirects: 0,
      storageState: { cookies: sessionCookies, origins: [] },
    });
    expect((await stolen.get('/')).status()).toBe(200);
    expect((await stolen.get(`/api/verifications/${id}`)).status()).toBe(200);

    // From another origin: refused, and the session lives on.
    const forged = await context.request.post('/sign-out', { headers: { Origin: EVIL_ORIGIN }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect((await stolen.get('/')).status()).toBe(200);

    const signOut = ownPage.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/sign-out');
    await ownPage.getByRole('button', { name: 'Sign out' }).click();
    const response = await signOut;
    expect(response.status()).toBe(303);
    // allHeaders(): headers() leaves out the ones Chromium treats as security-relevant.
    expect((await response.allHeaders())['clear-site-data']).toContain('"cache"');
    await expect(ownPage).toHaveURL(/\/sign-in\?signedOut=1$/);
    await expect(ownPage.getByRole('status').filter({ hasText: 'You are signed out.' })).toBeVisible();
    await context.close();

    // …and is worth nothing after the sign-out: the session ended on the server, not only in the browser.
    const home = await stolen.get('/');
    expect(home.status()).toBe(307);
    expect(new URL(home.headers().location ?? '/', base).pathname).toBe('/sign-in');
    const read = await stolen.get(`/api/verifications/${id}`);
    expect(read.status()).toBe(401);
    await stolen.dispose();
  });

  test('an opaque origin ("Origin: null") is refused like any other origin', async ({ playwright }) => {
    // Browsers send `Origin: null` from sandboxed iframes and data: URLs; it must get the 403,
    // not an error.
    const anonymous = await playwright.request.newContext({ baseURL: mainBaseUrl(), maxRedirects: 0, storageState: SIGNED_OUT });
    const response = await anonymous.post('/sign-out', { headers: { Origin: 'null' } });
    const status = response.status();
    await anonymous.dispose();
    expect(status).toBe(403);
  });
});
