// Two-factor steps as a person takes them in the browser: enrolment read off the page (the
// manual key becomes an otpauth TOTP that computes codes as an authenticator app would), and a
// sign-in with the password. Shared by e2e/two-factor.spec.ts and any spec that needs an
// account with a second factor.
import { expect, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';

export type Enrolled = { totp: OTPAuth.TOTP; backupCodes: string[] };

/** The authenticator for a manual key as the enrolment page shows it ("ABCD EFGH …"). */
export function authenticatorFor(manualKey: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: 'Verification Desk',
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(manualKey.replace(/\s+/g, '')),
  });
}

/** A code the server accepts for none of the steps around now. */
export function wrongCodeFor(totp: OTPAuth.TOTP): string {
  const accepted = new Set([-1, 0, 1].map((step) => totp.generate({ timestamp: Date.now() + step * 30_000 })));
  let code = 0;
  while (accepted.has(String(code).padStart(6, '0'))) code += 1;
  return String(code).padStart(6, '0');
}

/** Steps 1 and 2 of enrolment on /account/two-factor: the password, then the key read off the page. */
export async function startEnrolmentOnPage(page: Page, password: string): Promise<OTPAuth.TOTP> {
  if (!new URL(page.url()).pathname.startsWith('/account/two-factor')) await page.goto('/account/two-factor');
  await page.getByLabel('Current password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  const key = page.getByTestId('manual-key');
  await expect(key).toHaveText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  await expect(page.getByRole('img', { name: /QR code to add Verification Desk/ })).toBeVisible();
  return authenticatorFor((await key.textContent()) ?? '');
}

/** Step 3: the first code; returns the backup codes shown once. */
export async function finishEnrolmentOnPage(page: Page, totp: OTPAuth.TOTP): Promise<string[]> {
  await page.getByLabel('6-digit code').fill(totp.generate());
  await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await expect(page.getByText('Two-factor authentication is on').first()).toBeVisible();
  const codes = page.getByTestId('backup-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  return (await codes.allTextContents()).map((code) => code.trim());
}

export async function enrolOnPage(page: Page, password: string): Promise<Enrolled> {
  const totp = await startEnrolmentOnPage(page, password);
  return { totp, backupCodes: await finishEnrolmentOnPage(page, totp) };
}

/**
 * The password step of a sign-in (from the sign-in page, with an optional return path). A page
 * already showing the sign-in form without a return path (after a sign-out) is used as it is.
 */
export async function submitPassword(page: Page, email: string, password: string, next?: string) {
  const here = new URL(page.url());
  const onPlainSignIn = here.pathname === '/sign-in' && !here.searchParams.has('next');
  if (next || !onPlainSignIn) await page.goto(next ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
}
