// Adding a colleague the way an administrator does it: "Create account" on the Staff page gives
// a one-time invitation link, and the colleague sets their own password through it. Other specs
// use createColleague for a quick account with a known password; specs whose subject is the
// colleague's side of the link get one with inviteOverHttp, without opening the Staff page.
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import { actionId, formActionCall, replayAction } from './server-actions';
import type { Role } from './staff';

export type Colleague = { name: string; email: string; role: Role };

const NO_SESSION = { cookies: [], origins: [] };
const LINK = /\/invitation\/[A-Za-z0-9_-]{43}$/;

/** Creates the account on the Staff page (the admin's page); returns the invitation link shown once. */
export async function inviteOnStaffPage(adminPage: Page, colleague: Colleague): Promise<string> {
  await adminPage.goto('/staff');
  await adminPage.getByLabel('Name', { exact: true }).fill(colleague.name);
  await adminPage.getByLabel('E-mail address').fill(colleague.email);
  await adminPage.getByLabel('Role', { exact: true }).selectOption(colleague.role);
  await adminPage.getByRole('button', { name: 'Create account' }).click();
  const created = adminPage.getByRole('status').filter({ hasText: 'Account created' });
  await expect(created).toContainText(`Send this link to ${colleague.email} yourself; it works once, until`);
  const link = await created.getByTestId('invitation-link').inputValue();
  expect(link).toMatch(LINK);
  return link;
}

/**
 * The same account made by posting the Staff page's create action as the browser does, with the
 * administrator's session in `admin` (a request context); returns the invitation link it answers with.
 */
export async function inviteOverHttp(admin: APIRequestContext, baseURL: string, colleague: Colleague): Promise<string> {
  const call = formActionCall(
    actionId('createStaffAction'),
    '/staff',
    { status: 'idle', values: { name: '', email: '', role: 'viewer' } },
    { name: colleague.name, email: colleague.email, role: colleague.role },
  );
  const answer = await replayAction(admin, baseURL, call, { origin: new URL(baseURL).origin });
  const text = await answer.text();
  const link = /"link":"([^"]+)"/.exec(text)?.[1];
  if (!link) throw new Error(`The create action gave no invitation link (${answer.status()}): ${text.slice(0, 500)}`);
  expect(link).toMatch(LINK);
  return link;
}

type Invited = { name: string; role: 'viewer' | 'operator' | 'admin' };

/** On an invitation page already open: sets the password twice and waits until the colleague is signed in on their start page. */
export async function setPasswordHere(page: Page, colleague: Invited, password: string) {
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  // Hashing the password, the session, the redirect and the first render of home: on a busy
  // machine this has taken 12 s, past the default 10.
  await expect(page.getByTestId('signed-in-as')).toHaveText(colleague.name, { timeout: 30_000 });
  // Case workers start on the queue, viewers on the register (lib/auth/landing.ts).
  expect(new URL(page.url()).pathname).toBe(colleague.role === 'viewer' ? '/' : '/queue');
}

/** Opens the link, sets the password twice and waits until the colleague is signed in on home. */
export async function acceptInvitationIn(page: Page, link: string, colleague: Invited, password: string) {
  await page.goto(link);
  await expect(page.getByRole('heading', { name: `Welcome, ${colleague.name}. Set your password` })).toBeVisible();
  await setPasswordHere(page, colleague, password);
}

/**
 * A new account with a known password, made through the product: the administrator's stored
 * session invites, and the colleague accepts in a browser context of their own (closed after).
 */
export async function createColleague(
  browser: Browser,
  { baseURL, adminState, colleague, password }: { baseURL?: string; adminState: string; colleague: Colleague; password: string },
): Promise<void> {
  const adminContext = await browser.newContext({ baseURL, storageState: adminState });
  const link = await inviteOnStaffPage(await adminContext.newPage(), colleague);
  await adminContext.close();
  const ownContext = await browser.newContext({ baseURL, storageState: NO_SESSION });
  await acceptInvitationIn(await ownContext.newPage(), link, colleague, password);
  await ownContext.close();
}
