// Chromium for the bench (Playwright drives it; the kit finds it): launching it, signing the operator in, and
// capturing the exact server-action request the create form sends, so it can be replayed over
// plain HTTP without a browser in the timed loop.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../kit/browser.mjs';
import { OPERATOR } from './server.mjs';

export function launchBrowser() {
  // Playwright's own signal handlers would exit the process before the bench has stopped its
  // server; the bench closes the browser itself on every way out.
  return chromium.launch({
    executablePath: findChromium(),
    args: CHROMIUM_ARGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/** Signs `account` (the operator unless told) in through the real form; returns the session cookies and a Cookie header. */
export async function signIn(browser, base, account = OPERATOR) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto('/sign-in');
  await page.getByLabel('E-mail address').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Each role has its own start page (lib/auth/landing.ts): wait to be past sign-in.
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
  const cookies = await context.cookies();
  await context.close();
  return { cookies, cookieHeader: cookies.map((c) => `${c.name}=${c.value}`).join('; ') };
}

export const PERSON = {
  name: 'Bench Person',
  email: 'bench.person@example.com',
  purposeLabel: 'Legal obligation',
  purpose: 'legal_obligations',
};

/** The body of POST /v1/verifications/new for PERSON, as the create form sends it. */
export const DIRECT_CREATE_BODY = JSON.stringify({
  name: PERSON.name,
  email: PERSON.email,
  chosenPurpose: PERSON.purpose,
  language: 'en',
  shareableLink: false,
  emailNotification: true,
  smsNotification: false,
});

/** Fills the create form with a valid request for PERSON (e-mail notification, English). */
export async function fillCreateForm(page) {
  await page.getByLabel('Full name').fill(PERSON.name);
  await page.getByLabel('E-mail address').fill(PERSON.email);
  await page.getByRole('radio', { name: PERSON.purposeLabel }).check();
}

/**
 * Submits the create form once in a real browser and records the server-action POST it sends,
 * aborting it so it never reaches the server. Returns what a replay needs: path, headers, body,
 * and the form's submission key (a UUID the server accepts once; replays swap in fresh ones).
 */
export async function captureCreateAction(browser, base, cookies) {
  const context = await browser.newContext({ baseURL: base });
  await context.addCookies(cookies);
  const page = await context.newPage();
  await page.goto('/verifications/new');
  await fillCreateForm(page);
  const submissionKey = await page.locator('input[name="submissionKey"]').inputValue();
  let resolveCapture;
  const captured = new Promise((resolve) => (resolveCapture = resolve));
  await page.route('**/*', async (route, request) => {
    const headers = await request.allHeaders();
    if (request.method() !== 'POST' || !headers['next-action']) return route.fallback();
    const url = new URL(request.url());
    resolveCapture({ path: url.pathname + url.search, headers, body: request.postDataBuffer() ?? Buffer.alloc(0) });
    await route.abort();
  });
  await page.getByRole('button', { name: 'Create verification request' }).click();
  const action = await Promise.race([
    captured,
    new Promise((_, reject) => setTimeout(() => reject(new Error('the create form sent no server action within 15 s')), 15_000)),
  ]);
  await context.close();
  if (!action.body.includes(submissionKey)) throw new Error('the captured create action does not carry the form’s submission key');
  return { ...action, submissionKey };
}
