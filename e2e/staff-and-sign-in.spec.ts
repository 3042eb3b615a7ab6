// Staff access in the browser: signing in and out, the session cookie, failed and throttled
// sign-ins, what a viewer may not do, staff management by an administrator, and the audit trail
// those actions leave.
//
// Sign-in failures count per client network too (20 per 15 minutes, shared with every other
// spec whose browser talks to the same server from this machine). This file's browser spends 11:
// 1 + 5 + 5 comparing the answers and throttling. Throttled attempts are not counted. Attempts
// sent from other loopback addresses (e2e/support/sign-in-from.ts) count for their own networks.
//
// Only the tests whose subject is the sign-in page sign in through it; other checks of a session
// or a refusal are single requests (e2e/support/over-http.ts), not page loads.
//
// The stored sessions of e2e/.auth are shared with other specs: nothing here signs them out.
// Sign-outs and repeated sign-ins happen in fresh contexts with sessions of their own.
import { type Browser, type Cookie, expect, type Page, request, test } from '@playwright/test';
import { disableThroughDialog } from './support/disable-staff';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { acceptInvitationIn, inviteOnStaffPage } from './support/invitations';
import { opensDashboard } from './support/over-http';
import { signInFrom } from './support/sign-in-from';
import { type Role, STAFF, seededAccount, storageStateOf } from './support/staff';

const SESSION_COOKIE = 'vdesk.session_token';
const WRONG_CREDENTIALS = 'Incorrect e-mail address or password.';
const THROTTLED = /^Too many failed sign-ins for this e-mail address from this network\. Wait \d+ minutes? and try again\.$/;
const NO_SESSION = { cookies: [], origins: [] };

const uniqueEmail = (base: string) => `${base}.${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A context of its own: signed in as a role (the stored session), or not at all. */
function newContext(browser: Browser, baseURL: string | undefined, role: Role | null, options: { clipboard?: boolean } = {}) {
  return browser.newContext({
    baseURL,
    storageState: role ? storageStateOf(role) : NO_SESSION,
    permissions: options.clipboard ? ['clipboard-read', 'clipboard-write'] : [],
  });
}

/** The sign-in form's own alert (Next adds a route announcer with role=alert to every page). */
const signInAlert = (page: Page) => page.locator('form').getByRole('alert');
const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true });

/**
 * Fills and submits the sign-in form, and waits until the answer has been rendered: the
 * form's reset after the action must not swallow what the next attempt types.
 */
async function submitSignIn(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/sign-in');
  await signInButton(page).click();
  await answered;
}

/** A failed attempt: returns the alert's text once it is shown and the form is ready again. */
async function failSignIn(page: Page, email: string, password: string): Promise<string> {
  await submitSignIn(page, email, password);
  await expect(signInButton(page)).toBeEnabled();
  await expect(signInAlert(page)).toBeVisible();
  return (await signInAlert(page).innerText()).trim();
}

async function sessionCookie(page: Page): Promise<Cookie | undefined> {
  return (await page.context().cookies()).find((c) => c.name === SESSION_COOKIE);
}

/** Does this cookie still open the dashboard, sent alone by a client that has nothing else? */
async function cookieStillWorks(baseURL: string | undefined, cookie: Cookie): Promise<boolean> {
  const api = await request.newContext({ baseURL, storageState: { cookies: [cookie], origins: [] } });
  const signedIn = await opensDashboard(api);
  await api.dispose();
  return signedIn;
}

/** Creates a request with a shareable link (and an e-mail address) as the operator. */
async function createShareableRequest(page: Page, person: { name: string; email: string }): Promise<string> {
  await openCreateForm(page);
  await page.getByRole('switch', { name: 'Shareable link' }).check();
  await fillBasics(page, { name: person.name, email: person.email });
  await submitCreate(page);
  return createdId(page);
}

test.describe('signing in and out', () => {
  test.use({ storageState: NO_SESSION });

  test('signs in and out through the UI: the way back, the session cookie, a new session for every sign-in, and sign-out ending it on the server', async ({
    page,
    context,
    baseURL,
  }) => {
    // Two tabs: the second shows the form (with a way back to another site) before the first
    // signs in; it then signs in again while the browser already holds a session.
    const second = await context.newPage();
    await second.goto('/sign-in?next=%2F%2Fevil.example.com%2Fphish');

    let before: Cookie | undefined;
    await test.step('an unauthenticated visit to a page leads to sign-in, and back there after it', async () => {
      await page.goto('/verifications/new');
      // The redirect is over once goto returns: no need to wait the full 5 s for the expected failure.
      await expect(page).toHaveURL(/\/sign-in\?next=%2Fverifications%2Fnew$/, { timeout: 2_000 });
      expect(await sessionCookie(page)).toBeUndefined();
      await submitSignIn(page, STAFF.operator.email, STAFF.operator.password);
      await expect(page).toHaveURL(/\/verifications\/new$/);
      await expect(page.getByRole('heading', { name: 'New verification request' })).toBeVisible();
      const header = page.getByRole('banner');
      await expect(header.getByTestId('signed-in-as')).toHaveText(STAFF.operator.name);
      await expect(header).toContainText('Operator');
      before = await sessionCookie(page);
      expect(before).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
      expect(before!.value.length).toBeGreaterThan(20);
    });

    await test.step('a signed-in visit to /sign-in never redirects off-site, whatever the encoding of next', async () => {
      for (const next of [
        '/.//evil.example/x',
        '/%2e%2e//evil.example/x',
        '/a/..//evil.example',
        '//evil.example',
        'https://evil.example',
      ]) {
        const response = await page.request.get(`/sign-in?next=${encodeURIComponent(next)}`, { maxRedirects: 0 });
        expect(response.status(), next).toBe(307);
        const location = response.headers().location ?? '';
        expect({ next, location }).toEqual({ next, location: '/start' });
      }
      // And a browser that follows it lands here.
      await page.goto(`/sign-in?next=${encodeURIComponent('/.//evil.example/x')}`);
      await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/queue$/);
    });

    let after: Cookie | undefined;
    await test.step('signing in again gets a new session and ends the one held before; a next= of another site is ignored', async () => {
      await submitSignIn(second, STAFF.operator.email, STAFF.operator.password);
      // An operator starts on the queue (lib/auth/landing.ts).
      await expect(second).toHaveURL(`${baseURL}/queue`);
      // The way to home after it (a full render) has taken over 10 s on a loaded machine.
      await expect(second.getByTestId('signed-in-as')).toHaveText(STAFF.operator.name, { timeout: 30_000 });
      after = await sessionCookie(second);
      expect(after).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false });
      expect(after!.value).not.toBe(before!.value);
      expect(await cookieStillWorks(baseURL, before!)).toBe(false);
      expect(await cookieStillWorks(baseURL, after!)).toBe(true);
    });

    await test.step('sign-out ends the session on the server', async () => {
      await second.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await expect(second).toHaveURL(/\/sign-in\?signedOut=1$/);
      await expect(second.getByRole('status').filter({ hasText: 'You are signed out.' })).toBeVisible();
      // The browser no longer holds a session. (The product empties the cookie rather than
      // expiring it: its Set-Cookie has no Max-Age=0, so an empty cookie stays behind.)
      expect((await sessionCookie(second))?.value ?? '').toBe('');
      expect(await opensDashboard(second.request, '/')).toBe(false);
      // A copy of the cookie kept from before the sign-out is worthless: the session is gone.
      expect(await cookieStillWorks(baseURL, after!)).toBe(false);
    });
  });
});

test.describe('failed sign-ins', () => {
  test.use({ storageState: NO_SESSION });

  test('an unknown e-mail and a wrong password get the same answer and the e-mail stays; after 5 failures from one network an account is throttled there, even with the right password; unknown e-mails alike', async ({
    page,
  }) => {
    // A dedicated account (one per attempt), so no other test's account gets locked.
    const account = seededAccount('throttled', test.info().retry);
    const { password } = account;

    await page.goto('/sign-in');
    const typedUnknown = `Nobody.${Math.random().toString(36).slice(2, 8)}@Example.com`;
    const unknownAnswer = await failSignIn(page, typedUnknown, 'whatever-password-1');
    await expect(page.getByLabel('E-mail address')).toHaveValue(typedUnknown);
    await expect(page).toHaveURL(/\/sign-in/);
    const wrongAnswer = await failSignIn(page, account.email, 'wrong-password-1');
    await expect(page.getByLabel('E-mail address')).toHaveValue(account.email);
    expect(unknownAnswer).toContain(WRONG_CREDENTIALS);
    expect(wrongAnswer).toBe(unknownAnswer);

    for (let attempt = 2; attempt <= 5; attempt++) {
      expect(await failSignIn(page, account.email, `wrong-password-${attempt}`), `attempt ${attempt}`).toContain(WRONG_CREDENTIALS);
    }
    await submitSignIn(page, account.email, password);
    const message = signInAlert(page).locator('p').last();
    await expect(message).toHaveText(THROTTLED);
    const throttledAccount = await message.innerText();
    await expect(page).toHaveURL(/\/sign-in/);
    expect(await sessionCookie(page)).toBeUndefined();

    // An e-mail nobody has: the same five answers, then the same throttle message, so the
    // throttle does not reveal which accounts exist.
    const unknown = uniqueEmail('no.such.person');
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await failSignIn(page, unknown, `wrong-password-${attempt}`), `unknown, attempt ${attempt}`).toContain(WRONG_CREDENTIALS);
    }
    await submitSignIn(page, unknown, 'wrong-password-6');
    await expect(message).toHaveText(THROTTLED);
    expect(await message.innerText()).toBe(throttledAccount);
  });

  test("5 wrong guesses from a stranger's network do not stop the right password from the person's own", async ({ baseURL }) => {
    const account = seededAccount('stranger', test.info().retry);
    const { password } = account;

    // The stranger, on another network (another loopback address than the browsers').
    const stranger = { localAddress: '127.0.0.9', email: account.email };
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await signInFrom(baseURL!, { ...stranger, password: `wrong-password-${attempt}` }), `attempt ${attempt}`).toEqual({
        outcome: 'wrong',
      });
    }
    // Throttled there, even with the right password, and refused before it is checked.
    expect(await signInFrom(baseURL!, { ...stranger, password })).toEqual({
      outcome: 'throttled',
      message: expect.stringMatching(THROTTLED),
    });

    // The person, from their own network, gets in at once.
    expect(await signInFrom(baseURL!, { localAddress: '127.0.0.10', email: account.email, password })).toEqual({ outcome: 'signed-in' });
  });
});

test.describe('viewer', () => {
  test.use({ storageState: storageStateOf('viewer') });

  test('cannot create requests nor see shareable links', async ({ page, browser, baseURL }) => {
    // A request with a shareable link, made by the operator: the operator gets a copy button.
    const operator = await newContext(browser, baseURL, 'operator');
    const operatorPage = await operator.newPage();
    const person = { name: uniqueName('Vic Shared'), email: uniqueEmail('vic.shared') };
    const id = await createShareableRequest(operatorPage, person);
    await expect(operatorPage.getByRole('banner').getByRole('link', { name: 'New request' })).toBeVisible();
    // The register the operator is served has the copy button (the home page is rendered on the server).
    const operatorHome = await operatorPage.request.get('/');
    expect(operatorHome.status()).toBe(200);
    expect(await operatorHome.text()).toContain(`aria-label="Copy link for ${person.name}"`);
    await operator.close();

    await page.goto('/');
    const header = page.getByRole('banner');
    await expect(header.getByTestId('signed-in-as')).toHaveText(STAFF.viewer.name);
    await expect(header).toContainText('Viewer');
    await expect(header.getByRole('link', { name: 'New request' })).toHaveCount(0);
    // The viewer sees the request in the register, but no way to copy its link.
    await expect(page.getByRole('row').filter({ hasText: id })).toContainText(person.name);
    await expect(page.getByRole('button', { name: /copy link/i })).toHaveCount(0);
    // …nor on the request's own page.
    await page.goto(`/verifications/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: person.name })).toBeVisible();
    await expect(page.getByRole('button', { name: /copy link/i })).toHaveCount(0);

    const response = await page.request.get('/verifications/new', { maxRedirects: 0 });
    expect(response.status()).toBe(403);
    const refusal = await response.text();
    expect(refusal).toContain('Not available for your role');
    expect(refusal).not.toContain('Create verification request');
  });
});

test.describe('staff management and the audit trail', () => {
  test.use({ storageState: storageStateOf('admin') });
  // The audit test reads what the staff test did.
  test.describe.configure({ mode: 'serial' });

  const colleague = { name: uniqueName('Cora Colleague'), email: uniqueEmail('cora.colleague') };
  let colleagueEverSignedIn = false;

  test('an administrator creates, demotes and disables a colleague, who feels each change at once', async ({ page, browser, baseURL }) => {
    const link = await inviteOnStaffPage(page, { ...colleague, role: 'operator' });
    const row = page.getByRole('row').filter({ hasText: colleague.email });
    await expect(row.getByRole('cell').nth(1)).toHaveText('Operator');

    await test.step('an administrator has no Disable control on their own row', async () => {
      const me = page.getByRole('row').filter({ hasText: '(you)' });
      await expect(me).toHaveCount(1);
      await expect(me).toContainText(STAFF.admin.email);
      await expect(me.getByRole('button', { name: /^Change role/ })).toBeVisible();
      // Disable is a link to its confirmation page (a dialog once JavaScript runs).
      await expect(me.getByRole('link', { name: /^Disable/ })).toHaveCount(0);
      await expect(me.getByRole('button', { name: /^Disable/ })).toHaveCount(0);
      // Others' rows do have one, so the locator above is not simply wrong.
      await expect(row.getByRole('link', { name: /^Disable/ })).toBeVisible();
    });

    // The colleague sets their own password through the invitation, and is signed in by it.
    const password = 'cora chose this password herself';
    const theirs = await newContext(browser, baseURL, null);
    const them = await theirs.newPage();
    await acceptInvitationIn(them, link, { ...colleague, role: 'operator' }, password);
    await expect(them.getByRole('banner').getByRole('link', { name: 'New request' })).toBeVisible();
    colleagueEverSignedIn = true;

    // Operator → viewer: their next page load has viewer rights.
    await row.getByLabel(`Role of ${colleague.name}`).selectOption('viewer');
    await row.getByRole('button', { name: `Change role of ${colleague.name}` }).click();
    await expect(row.getByRole('status')).toHaveText('Role changed.');
    await expect(row.getByRole('cell').nth(1)).toHaveText('Viewer');
    await them.reload();
    await expect(them.getByRole('banner')).toContainText('Viewer');
    await expect(them.getByRole('banner').getByRole('link', { name: 'New request' })).toHaveCount(0);
    expect((await them.request.get('/verifications/new', { maxRedirects: 0 })).status()).toBe(403);

    // Disabled: the open session ends at once, and the right password no longer opens it.
    await disableThroughDialog(page, row, colleague.name);
    await expect(row.getByRole('cell').nth(1)).toHaveText('Disabled');
    await expect(row.getByRole('link', { name: /^Disable/ })).toHaveCount(0);
    expect(await opensDashboard(them.request, '/')).toBe(false);
    await theirs.close();
    // From another network than the browsers', so it spends none of their sign-in failures.
    expect(await signInFrom(baseURL!, { localAddress: '127.0.0.11', email: colleague.email, password })).toEqual({ outcome: 'wrong' });
  });

  test('the audit trail records it all, filters by action, person and date, and holds no personal data', async ({
    page,
    browser,
    baseURL,
  }) => {
    test.skip(!colleagueEverSignedIn, 'reads the entries left by the staff management test');
    // About ten page loads (each filter is a plain GET form): the slow budget on a busy machine.
    test.slow();

    // As the operator: create, copy the link of, and view a request for a person.
    const person = { name: uniqueName('Paula Private'), email: uniqueEmail('paula.private') };
    const operator = await newContext(browser, baseURL, 'operator', { clipboard: true });
    const operatorPage = await operator.newPage();
    const id = await createShareableRequest(operatorPage, person);
    const recorded = operatorPage.waitForResponse((r) => r.request().method() === 'POST' && !!r.request().headers()['next-action']);
    await operatorPage.getByTestId('creation-result').getByRole('button', { name: 'Copy link' }).click();
    await expect(operatorPage.getByRole('button', { name: 'Link copied' })).toBeVisible();
    await recorded;
    // Viewing is recorded when the server renders the request's page.
    const viewed = await operatorPage.request.get(`/verifications/${id}`);
    expect(viewed.status()).toBe(200);
    expect(await viewed.text()).toContain(person.name);
    await operator.close();

    const entries = page.getByTestId('audit-entries').locator('tr[data-action]');
    const column = (n: number) => entries.locator(`td:nth-child(${n})`);
    const WHO = 2;
    const ACTION = 3;
    const ON = 4;
    const DETAILS = 5;

    /** Sets every field of the filter form (so nothing carries over) and submits it. */
    async function filter(by: { verification?: string; action?: string; person?: string; from?: string; to?: string }) {
      if (!new URL(page.url()).pathname.startsWith('/audit')) await page.goto('/audit');
      const fields = {
        verification: page.getByLabel('Verification id'),
        actor: page.getByLabel('Person', { exact: true }),
        action: page.getByLabel('Action', { exact: true }),
        from: page.getByLabel('From (UTC)'),
        to: page.getByLabel('To (UTC)'),
      };
      await fields.verification.fill(by.verification ?? '');
      await fields.actor.selectOption({ label: by.person ?? 'Everyone' });
      await fields.action.selectOption({ label: by.action ?? 'All actions' });
      await fields.from.fill(by.from ?? '');
      await fields.to.fill(by.to ?? '');
      // The form is a plain GET: wait for the address that these values make.
      const query = new URLSearchParams();
      for (const [name, field] of Object.entries(fields)) query.set(name, await field.inputValue());
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL((url) => url.pathname === '/audit' && url.search === `?${query}`);
    }
    const entryWith = (cells: Record<number, string | RegExp>) =>
      Object.entries(cells).reduce(
        (rows, [n, text]) => rows.filter({ has: page.locator(`td:nth-child(${n})`, { hasText: text }) }),
        entries,
      );

    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString().slice(0, 10);

    // Each action filter shows only that action, and the entry the administrator left.
    const expectations: Array<[label: string, entry: Record<number, string | RegExp>]> = [
      ['Staff account created', { [WHO]: STAFF.admin.name, [ON]: colleague.name, [DETAILS]: 'Role: Operator' }],
      // The details in words, whatever the key order of the jsonb column they come from.
      ['Role changed', { [WHO]: STAFF.admin.name, [ON]: colleague.name, [DETAILS]: 'Role: Viewer (was Operator)' }],
      ['Staff account disabled', { [WHO]: STAFF.admin.name, [ON]: colleague.name }],
      ['Invitation issued', { [WHO]: STAFF.admin.name, [ON]: colleague.name }],
    ];
    for (const [label, entry] of expectations) {
      await filter({ action: label });
      await expect(page).toHaveURL(/[?&]action=[a-z_.]+/);
      await expect(entryWith(entry), label).toHaveCount(1);
      const actions = await column(ACTION).allInnerTexts();
      expect(new Set(actions), label).toEqual(new Set([label]));
    }
    // By person: only the colleague's own entries (set their password through the invitation and
    // were signed in by it, then refused once disabled).
    await filter({ person: colleague.name });
    await expect(page).toHaveURL(/[?&]actor=[0-9a-f-]{36}/);
    expect(new Set(await column(WHO).allInnerTexts())).toEqual(new Set([colleague.name]));
    expect(new Set(await column(ACTION).allInnerTexts())).toEqual(new Set(['Invitation used', 'Signed in', 'Sign-in failed']));
    await expect(entryWith({ [ACTION]: 'Invitation used', [ON]: colleague.name })).toHaveCount(1);

    // By verification and by date (UTC days): the operator's three entries on the request, all
    // today, and nothing yesterday.
    await filter({ verification: id, from: today, to: today });
    await expect(page).toHaveURL(/[?&]verification=[^&]+/);
    await expect(entries).toHaveCount(3);
    expect(new Set(await column(WHO).allInnerTexts())).toEqual(new Set([STAFF.operator.name]));
    expect(new Set(await column(ON).allInnerTexts())).toEqual(new Set([id]));
    expect(new Set(await column(ACTION).allInnerTexts())).toEqual(new Set(['Verification created', 'Verification viewed', 'Link copied']));
    await filter({ from: yesterday, to: yesterday });
    await expect(page.getByTestId('audit-entries')).toContainText('No entries match these filters.');
    await expect(entries).toHaveCount(0);

    // Privacy: the trail names the verification by id only. The unfiltered first page holds this
    // test's entries (so the checks below look at them) and not a trace of the person.
    await page.goto('/audit');
    await expect(entryWith({ [ON]: id })).toHaveCount(3);
    const onAndDetails = [...(await column(ON).allInnerTexts()), ...(await column(DETAILS).allInnerTexts())];
    expect(onAndDetails.length).toBeGreaterThan(0);
    for (const text of onAndDetails) {
      expect(text).not.toContain(person.name);
      expect(text.toLowerCase()).not.toContain(person.email.toLowerCase());
    }
    const everyCell = await page.getByTestId('audit-entries').locator('td').allInnerTexts();
    for (const text of everyCell) {
      expect(text.toLowerCase()).not.toContain(person.email.toLowerCase());
      // Nor any other e-mail address: staff are shown by name, people not at all.
      expect(text).not.toContain('@');
    }
  });
});
