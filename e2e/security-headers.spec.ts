// Security headers from proxy.ts on every HTML response, and no script blocked by them.
import { expect, test, type APIResponse } from '@playwright/test';
import { storageStateOf } from './support/staff';

function expectStrictCsp(response: APIResponse, where: string) {
  const csp = response.headers()['content-security-policy'] ?? '';
  const directives = Object.fromEntries(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  ) as Record<string, string[] | undefined>;
  const scriptSrc = directives['script-src'] ?? [];
  expect(scriptSrc.some((v) => /^'nonce-[A-Za-z0-9+/=]{16,}'$/.test(v)), `${where}: script nonce`).toBe(true);
  expect(scriptSrc, `${where}: strict-dynamic`).toContain("'strict-dynamic'");
  expect(csp, `${where}: no unsafe-inline`).not.toContain('unsafe-inline');
  expect(csp, `${where}: no unsafe-eval`).not.toContain('unsafe-eval');
  expect(directives['frame-ancestors'], where).toEqual(["'none'"]);
  expect(directives['object-src'], where).toEqual(["'none'"]);
  expect(directives['base-uri'], where).toEqual(["'none'"]);
  expect(directives['form-action'], where).toEqual(["'self'"]);
  expect(response.headers()['x-content-type-options'], where).toBe('nosniff');
  expect(['strict-origin-when-cross-origin', 'no-referrer', 'same-origin'], where).toContain(response.headers()['referrer-policy']);
  return scriptSrc.find((v) => v.startsWith("'nonce-"));
}

test.describe('security headers', () => {
  test('public pages: CSP with a fresh nonce per request, nosniff, referrer policy', async ({ playwright }) => {
    const anonymous = await playwright.request.newContext({ storageState: { cookies: [], origins: [] } });
    const first = await anonymous.get('/sign-in');
    const second = await anonymous.get('/sign-in');
    expect(first.status()).toBe(200);
    expect(expectStrictCsp(first, '/sign-in')).not.toBe(expectStrictCsp(second, '/sign-in (again)'));
    // The nonce in the header is the one on the page's scripts.
    const nonce = expectStrictCsp(first, '/sign-in')!.slice("'nonce-".length, -1);
    expect(await first.text()).toContain(`nonce="${nonce}"`);
    expectStrictCsp(await anonymous.get('/sandbox/verify/not-a-real-token-but-long-enough-0000000000'), 'person page');
    await anonymous.dispose();
  });

  test('dashboard pages with personal data are not cached, and carry the same policy', async ({ playwright }) => {
    const staff = await playwright.request.newContext({ storageState: storageStateOf('admin') });
    for (const path of ['/', '/verifications/new', '/staff', '/audit', '/outbox']) {
      const response = await staff.get(path);
      expect(response.status(), path).toBe(200);
      expectStrictCsp(response, path);
      expect(response.headers()['cache-control'], path).toContain('no-store');
    }
    await staff.dispose();
  });

  test('no script or style is blocked by the policy while staff work', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    for (const path of ['/', '/verifications/new', '/outbox']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    // Hydrated (the form validates in the browser), so the nonce'd scripts did run.
    await page.goto('/verifications/new');
    await page.getByRole('button', { name: 'Create verification request' }).click();
    await expect(page.locator('#name-error')).toHaveText("Enter the person's full name.");
    expect(violations).toEqual([]);
  });

  test('health answers without a session; readiness reports its checks', async ({ playwright }) => {
    const anonymous = await playwright.request.newContext({ storageState: { cookies: [], origins: [] } });
    const health = await anonymous.get('/api/health');
    expect(health.status()).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await anonymous.get('/api/ready');
    expect(ready.status()).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', service: 'ok' } });
    await anonymous.dispose();
  });
});
