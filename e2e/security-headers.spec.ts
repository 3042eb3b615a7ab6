// Security headers from proxy.ts on every HTML response, and no script blocked by them.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIResponse, expect, test } from '@playwright/test';
import { createdId, fillBasics, openCreateForm, submitCreate, uniqueName } from './support/fixtures';
import { storageStateOf } from './support/staff';

interface Probe {
  path: string;
  as: 'anonymous' | 'admin' | 'viewer';
  status: number;
  /** Shows personal data (a person's or a staff member's name, a record): must not be cached. */
  personal: boolean;
  /** Text the page must contain, where the status alone does not tell which view answered. */
  shows?: string;
  /** A Referrer-Policy this page must have instead of the site's default (its path holds a secret). */
  referrer?: string;
  /** Where a redirect (307/308) leads; the detail page's address unless told. */
  location?: string;
}

function routesOfBuild(kind: 'page' | 'route'): string[] {
  const manifest = JSON.parse(readFileSync(path.resolve('.next/app-path-routes-manifest.json'), 'utf8')) as Record<string, string>;
  return Object.entries(manifest)
    .filter(([file]) => file.endsWith(`/${kind}`))
    .map(([, route]) => route)
    .sort();
}

/** The page routes (not route handlers) of the current build, from Next's own manifest. */
const pageRoutesOfBuild = () => routesOfBuild('page');

const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** What every response carries besides its Content-Security-Policy (next.config.mjs). */
function expectStaticHeaders(response: APIResponse, where: string) {
  expect(response.headers()['x-content-type-options'], where).toBe('nosniff');
  expect(response.headers()['x-frame-options'], where).toBe('DENY');
  expect(response.headers()['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
}

function expectStrictCsp(response: APIResponse, where: string) {
  const csp = response.headers()['content-security-policy'] ?? '';
  const directives = Object.fromEntries(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  ) as Record<string, string[] | undefined>;
  const scriptSrc = directives['script-src'] ?? [];
  expect(
    scriptSrc.some((v) => /^'nonce-[A-Za-z0-9+/=]{16,}'$/.test(v)),
    `${where}: script nonce`,
  ).toBe(true);
  expect(scriptSrc, `${where}: strict-dynamic`).toContain("'strict-dynamic'");
  expect(csp, `${where}: no unsafe-inline`).not.toContain('unsafe-inline');
  expect(csp, `${where}: no unsafe-eval`).not.toContain('unsafe-eval');
  expect(directives['frame-ancestors'], where).toEqual(["'none'"]);
  expect(directives['object-src'], where).toEqual(["'none'"]);
  expect(directives['base-uri'], where).toEqual(["'none'"]);
  expect(directives['form-action'], where).toEqual(["'self'"]);
  expect(response.headers()['x-content-type-options'], where).toBe('nosniff');
  expect(['strict-origin-when-cross-origin', 'strict-origin', 'no-referrer', 'same-origin'], where).toContain(
    response.headers()['referrer-policy'],
  );
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

  test('every page route of the build, in each of its states, carries the policy; personal data is not cached', async ({
    page,
    playwright,
  }) => {
    // A request with a shareable link, so the person's page has a real token.
    await openCreateForm(page);
    await page.getByRole('switch', { name: 'Shareable link' }).check();
    await fillBasics(page, { name: uniqueName('Header Person'), purpose: 'Ensuring compliance' });
    await submitCreate(page);
    const id = await createdId(page);
    const personPath = new URL(await page.getByRole('textbox', { name: 'Shareable link' }).inputValue()).pathname;

    // One entry per page route of the build: a page added without a case here fails the test.
    const cases: Record<string, Probe[]> = {
      '/': [{ path: '/', as: 'admin', status: 200, personal: true }],
      '/sign-in': [{ path: '/sign-in', as: 'anonymous', status: 200, personal: false }],
      '/sign-in/refused': [
        {
          path: '/sign-in/refused?reason=unknown',
          as: 'anonymous',
          status: 200,
          personal: false,
          shows: 'No staff account for this sign-in',
        },
      ],
      '/sign-in/link': [
        { path: `/sign-in/link?token=${'a'.repeat(43)}`, as: 'anonymous', status: 200, personal: false, shows: 'not a valid sign-in link' },
      ],
      // Without a pending sign-in the prompt still shows (its form then says to start again).
      '/sign-in/two-factor': [{ path: '/sign-in/two-factor', as: 'anonymous', status: 200, personal: false }],
      '/account': [{ path: '/account', as: 'viewer', status: 200, personal: true }],
      '/account/two-factor': [{ path: '/account/two-factor', as: 'admin', status: 200, personal: true }],
      // The no-JavaScript confirmation of a disable, for an account that does not exist: its 404.
      '/staff/[id]/disable': [{ path: `/staff/${randomUUID()}/disable`, as: 'admin', status: 404, personal: true }],
      // Accounts exist, so setup is gone: its 404.
      '/setup': [{ path: '/setup', as: 'anonymous', status: 404, personal: false }],
      '/audit': [{ path: '/audit', as: 'admin', status: 200, personal: true }],
      '/outbox': [{ path: '/outbox', as: 'admin', status: 200, personal: true }],
      // Names of people waiting and of the staff on them; the overview names staff too.
      '/queue': [{ path: '/queue', as: 'viewer', status: 200, personal: true }],
      '/overview': [{ path: '/overview', as: 'viewer', status: 200, personal: true }],
      '/webhooks': [{ path: '/webhooks', as: 'admin', status: 200, personal: true }],
      // The start page after sign-in sends each role to its first page (lib/auth/landing.ts).
      '/start': [
        { path: '/start', as: 'admin', status: 307, personal: true, location: '/queue' },
        { path: '/start', as: 'viewer', status: 307, personal: true, location: '/' },
      ],
      '/staff': [
        { path: '/staff', as: 'admin', status: 200, personal: true },
        // The 403 page: it still names the signed-in staff member in the header.
        { path: '/staff', as: 'viewer', status: 403, personal: true },
      ],
      '/verifications/new': [
        { path: '/verifications/new', as: 'admin', status: 200, personal: true },
        { path: '/verifications/new', as: 'viewer', status: 403, personal: true },
      ],
      '/verifications': [
        { path: '/verifications', as: 'admin', status: 200, personal: true },
        // The lookup without JavaScript answers with a redirect to the detail page.
        { path: `/verifications?id=${id}`, as: 'admin', status: 307, personal: true },
      ],
      '/verifications/[id]': [
        { path: `/verifications/${id}`, as: 'admin', status: 200, personal: true },
        { path: `/verifications/${id}`, as: 'viewer', status: 200, personal: true },
        // Unknown id: the not-found view with its 404 (the page has no skeleton streamed before it).
        { path: `/verifications/${randomUUID()}`, as: 'admin', status: 404, personal: true, shows: 'Verification not found' },
        // An uppercased id: a permanent redirect to the one lowercase address of the record.
        { path: `/verifications/${id.toUpperCase()}`, as: 'admin', status: 308, personal: true },
      ],
      // An invitation's page (a token never issued): its path holds the token, so its Referer is the origin only.
      '/invitation/[token]': [
        { path: '/invitation/not-a-token', as: 'anonymous', status: 200, personal: false, referrer: 'strict-origin' },
      ],
      // The person's page shows their name and who asks.
      '/sandbox/verify/[token]': [{ path: personPath, as: 'anonymous', status: 200, personal: true }],
      // Any address no route claims: inside the dashboard group, so a signed-in 404 keeps the
      // header (which names the staff member: not cached).
      '/[...missing]': [
        { path: '/no-such-page', as: 'admin', status: 404, personal: true, shows: 'Page not found' },
        { path: '/sandbox/no-such-page', as: 'anonymous', status: 404, personal: false, shows: 'Page not found' },
      ],
      // Next's own not-found route: the catch-all above answers every unclaimed address first.
      '/_not-found': [],
      // Rendered only when the root layout itself throws: no address leads to it.
      '/_global-error': [],
    };
    expect(Object.keys(cases).sort(), 'page routes of .next/app-path-routes-manifest.json').toEqual(pageRoutesOfBuild());

    const contexts = {
      anonymous: await playwright.request.newContext({ storageState: { cookies: [], origins: [] } }),
      admin: await playwright.request.newContext({ storageState: storageStateOf('admin') }),
      viewer: await playwright.request.newContext({ storageState: storageStateOf('viewer') }),
    };
    try {
      for (const probe of Object.values(cases).flat()) {
        const where = `${probe.path} as ${probe.as}`;
        const response = await contexts[probe.as].get(probe.path, { maxRedirects: 0 });
        expect(response.status(), where).toBe(probe.status);
        const nonce = expectStrictCsp(response, where)!.slice("'nonce-".length, -1);
        if (probe.status === 307 || probe.status === 308) {
          expect(response.headers().location, where).toBe(probe.location ?? `/verifications/${id}`);
        } else {
          expect(response.headers()['content-type'], where).toContain('text/html');
          // The header's nonce is the one Next put on the page's scripts.
          const html = await response.text();
          expect.soft(html, `${where}: nonce on the scripts`).toContain(`nonce="${nonce}"`);
          if (probe.shows) expect(html, where).toContain(probe.shows);
        }
        if (probe.personal) expect.soft(response.headers()['cache-control'], `${where}: Cache-Control`).toContain('no-store');
        if (probe.referrer) expect(response.headers()['referrer-policy'], `${where}: Referrer-Policy`).toBe(probe.referrer);
      }
    } finally {
      await Promise.all(Object.values(contexts).map((context) => context.dispose()));
    }
  });

  test('nothing is blocked by the policy while staff work: no script, style or eval, on the pages and in the forms', async ({ page }) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    // The document's own report of each violation: also those no console message is printed for,
    // such as a library probing for eval inside a try (zod does, unless told not to: lib/platform/zod-jitless.ts).
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const holder = window as unknown as { cspViolations?: string[] };
        holder.cspViolations = [...(holder.cspViolations ?? []), `${event.violatedDirective} ${event.blockedURI}`];
      });
    });
    const reported = () => page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []);
    for (const path of ['/', '/verifications/new', '/outbox', '/account']) {
      await page.goto(path);
      // Settled, or 3 s at most: on the shared server other tests' requests keep the live pages
      // busy (a register refreshes on each change), and an unbounded wait took 50 s there.
      await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined);
      for (const violation of await reported()) violations.push(`${path}: ${violation}`);
    }
    // Hydrated (the form validates in the browser, with zod loaded at the first focus), so the
    // nonce'd scripts did run.
    await page.goto('/verifications/new');
    await page.getByRole('button', { name: 'Create verification request' }).click();
    await expect(page.locator('#name-error')).toHaveText("Enter the person's full name.");
    for (const violation of await reported()) violations.push(`/verifications/new, validated: ${violation}`);
    expect(violations).toEqual([]);
  });

  test('every route handler of the build, in each of its answers, carries the strictest policy', async ({ playwright }) => {
    const id = randomUUID();
    // Each route handler with the answers it gives an anonymous caller and a signed-in one.
    // `page`: it passes the proxy like a page and gets a page's nonce policy.
    const cases: Record<string, { path: string; method?: 'GET' | 'POST'; as: 'anonymous' | 'admin'; status: number; page?: true }[]> = {
      '/sign-out': [{ path: '/sign-out', method: 'POST', as: 'anonymous', status: 303, page: true }],
      '/api/events': [{ path: '/api/events', as: 'anonymous', status: 401 }],
      // The CSV exports: refused, refused for a filter they cannot read, and a download.
      '/api/exports/audit': [
        { path: '/api/exports/audit', as: 'anonymous', status: 401 },
        { path: '/api/exports/audit?action=nothing.done', as: 'admin', status: 400 },
        { path: '/api/exports/audit?from=2000-01-01&to=2000-01-01', as: 'admin', status: 200 },
      ],
      '/api/exports/audit-chain': [
        { path: '/api/exports/audit-chain', as: 'anonymous', status: 401 },
        { path: '/api/exports/audit-chain', as: 'admin', status: 200 },
      ],
      '/api/audit/public-keys': [
        { path: '/api/audit/public-keys', as: 'anonymous', status: 401 },
        { path: '/api/audit/public-keys', as: 'admin', status: 200 },
      ],
      '/api/exports/overview': [
        { path: '/api/exports/overview', as: 'anonymous', status: 401 },
        { path: '/api/exports/overview?period=year', as: 'admin', status: 400 },
        { path: '/api/exports/overview?period=custom&from=2000-01-01&to=2000-01-01', as: 'admin', status: 200 },
      ],
      '/api/exports/register': [
        { path: '/api/exports/register', as: 'anonymous', status: 401 },
        { path: '/api/exports/register?status=sideways', as: 'admin', status: 400 },
        { path: '/api/exports/register?from=2000-01-01&to=2000-01-01', as: 'admin', status: 200 },
      ],
      // Single sign-on is not configured on the shared server: the provider's callback is not there.
      '/api/auth/callback/[providerId]': [{ path: '/api/auth/callback/oidc', as: 'anonymous', status: 404 }],
      '/api/health': [{ path: '/api/health', as: 'anonymous', status: 200 }],
      '/api/ready': [{ path: '/api/ready', as: 'anonymous', status: 200 }],
      '/api/verifications/[id]': [
        { path: `/api/verifications/${id}`, as: 'anonymous', status: 401 },
        { path: `/api/verifications/${id}`, as: 'admin', status: 404 },
      ],
      // The evidence pack: refused, refused for a format it does not make, and an id not in the register.
      '/api/verifications/[id]/evidence': [
        { path: `/api/verifications/${id}/evidence?format=pdf`, as: 'anonymous', status: 401 },
        { path: `/api/verifications/${id}/evidence?format=docx`, as: 'admin', status: 400 },
        { path: `/api/verifications/${id}/evidence?format=json`, as: 'admin', status: 404 },
      ],
      '/api/webhooks/verification-service': [{ path: '/api/webhooks/verification-service', method: 'POST', as: 'anonymous', status: 400 }],
      '/icon.svg': [{ path: '/icon.svg', as: 'anonymous', status: 200 }],
      '/v1/sandbox/outbox': [{ path: '/v1/sandbox/outbox', as: 'anonymous', status: 403 }],
      '/v1/sandbox/webhooks': [{ path: '/v1/sandbox/webhooks', as: 'anonymous', status: 403 }],
      '/v1/verifications/[id]': [
        { path: `/v1/verifications/${id}`, as: 'anonymous', status: 403 },
        // Reaches the proxy for its escape, which it refuses.
        { path: '/v1/verifications/%ZZ', as: 'anonymous', status: 400 },
      ],
      '/v1/verifications/new': [{ path: '/v1/verifications/new', method: 'POST', as: 'anonymous', status: 403 }],
      '/v1/verifications': [{ path: '/v1/verifications', as: 'anonymous', status: 403 }],
    };
    expect(Object.keys(cases).sort(), 'route handlers of .next/app-path-routes-manifest.json').toEqual(routesOfBuild('route'));
    const contexts = {
      anonymous: await playwright.request.newContext({ storageState: { cookies: [], origins: [] } }),
      admin: await playwright.request.newContext({ storageState: storageStateOf('admin') }),
    };
    try {
      for (const probe of Object.values(cases).flat()) {
        const where = `${probe.method ?? 'GET'} ${probe.path} as ${probe.as}`;
        const response = await contexts[probe.as].fetch(probe.path, { method: probe.method ?? 'GET', maxRedirects: 0 });
        expect.soft(response.status(), where).toBe(probe.status);
        if (probe.page) expectStrictCsp(response, where);
        else expect(response.headers()['content-security-policy'], where).toBe(API_POLICY);
        expectStaticHeaders(response, where);
      }
    } finally {
      await Promise.all(Object.values(contexts).map((context) => context.dispose()));
    }
  });

  test('behind HTTPS every answer asks browsers to keep to HTTPS; over plain HTTP none does', async ({ playwright }) => {
    const anonymous = await playwright.request.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      for (const path of ['/sign-in', '/', '/api/health', '/v1/verifications/new', '/no-such-page']) {
        const plain = await anonymous.get(path, { maxRedirects: 0 });
        expect(plain.headers()['strict-transport-security'], `${path} over http`).toBeUndefined();
        const tls = await anonymous.get(path, { maxRedirects: 0, headers: { 'x-forwarded-proto': 'https' } });
        expect(tls.headers()['strict-transport-security'], `${path} behind https`).toBe('max-age=31536000; includeSubDomains');
        expectStaticHeaders(tls, path);
      }
    } finally {
      await anonymous.dispose();
    }
  });

  test('health answers without a session; readiness reports its checks', async ({ playwright }) => {
    const anonymous = await playwright.request.newContext({ storageState: { cookies: [], origins: [] } });
    const health = await anonymous.get('/api/health');
    expect(health.status()).toBe(200);
    // API answers get the fixed, strictest policy (no script, no framing) and nosniff.
    expect(health.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(health.headers()['x-content-type-options']).toBe('nosniff');
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await anonymous.get('/api/ready');
    expect(ready.status()).toBe(200);
    // The audit chain's last check is a detail that never fails readiness (app/api/ready/route.ts).
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', service: 'ok' },
      details: { auditChain: { state: 'intact', checkedAt: expect.any(String) } },
    });
    await anonymous.dispose();
  });
});
