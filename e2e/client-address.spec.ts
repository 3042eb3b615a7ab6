// Which client address the server counts: the connection's by default, whatever X-Forwarded-For
// claims (on a server of this file's own), and the hop past the trusted proxies with TRUST_PROXY
// (the shared server runs with TRUST_PROXY=1; the addresses used here are this file's alone, so
// no other test's limits are touched). Clients on different networks are simulated by sending
// from different loopback addresses (e2e/support/sign-in-from.ts). Also: settings that would
// weaken this (a malformed TRUST_PROXY, a 1-byte webhook key) stop the server at start-up.
import { rmSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { type NextServer, startNextServer } from './kit/server.mjs';
import { newDataDir } from './support/data-dirs';
import { portFor } from './support/ports';
import { signInFrom } from './support/sign-in-from';

// E2E_PORT + 61…69 are this file's to use.
const PORT = portFor(61);
const REFUSED_PORT = portFor(63);
// The per-network ceiling (lib/auth/throttle.ts MAX_FAILURES_PER_NETWORK).
const NETWORK_CEILING = 20;

test.use({ storageState: { cookies: [], origins: [] } });

const dataDirs: string[] = [];
function freshDataDir(): string {
  const dir = newDataDir('client-address');
  dataDirs.push(dir);
  return dir;
}

test.afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** A different e-mail for every attempt, so only the network's ceiling can refuse. */
let sprayed = 0;
const nextVictim = () => `sprayed.${++sprayed}.${Math.random().toString(36).slice(2, 6)}@example.com`;

test.describe('without TRUST_PROXY', () => {
  let server: NextServer;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    server = await startNextServer({ port: PORT, dataDir: freshDataDir(), env: { APP_URL: `http://localhost:${PORT}` } });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("a forged X-Forwarded-For, fresh on every attempt or naming someone else's address, neither escapes the per-network ceiling nor uses up theirs", async () => {
    test.setTimeout(120_000);
    // Each attempt claims a fresh address first and 127.0.0.5 last: a server that believed the
    // first would never reach the ceiling; one that believed the last would spend 127.0.0.5's.
    const forged = (n: number) => `198.51.100.${n}, 127.0.0.5`;
    for (let attempt = 1; attempt <= NETWORK_CEILING; attempt++) {
      const answer = await signInFrom(server.url, {
        localAddress: '127.0.0.2',
        email: nextVictim(),
        password: 'wrong-password-123',
        forwardedFor: forged(attempt),
      });
      expect(answer, `attempt ${attempt}`).toEqual({ outcome: 'wrong' });
    }
    const refused = await signInFrom(server.url, {
      localAddress: '127.0.0.2',
      email: nextVictim(),
      password: 'wrong-password-123',
      forwardedFor: forged(222),
    });
    expect(refused).toEqual({
      outcome: 'throttled',
      message: expect.stringMatching(/^Too many failed sign-ins from this network\. Wait 1[45] minutes/),
    });
    // The address named in every forgery still has its whole ceiling.
    expect(await signInFrom(server.url, { localAddress: '127.0.0.5', email: nextVictim(), password: 'wrong-password-123' })).toEqual({
      outcome: 'wrong',
    });
    // Another network is not affected.
    expect(await signInFrom(server.url, { localAddress: '127.0.0.3', email: nextVictim(), password: 'wrong-password-123' })).toEqual({
      outcome: 'wrong',
    });
  });
});

test.describe('with TRUST_PROXY=1', () => {
  test('the address the trusted proxy appended counts, not what the client wrote before it', async ({ baseURL }) => {
    test.setTimeout(120_000);
    // The shared server trusts one proxy (playwright.config.ts). 127.0.0.6 plays the proxy: it
    // appends the address it received each request from.
    const viaProxy = (forwardedFor: string) =>
      signInFrom(baseURL!, { localAddress: '127.0.0.6', email: nextVictim(), password: 'wrong-password-123', forwardedFor });
    for (let attempt = 1; attempt <= NETWORK_CEILING; attempt++) {
      // The client claims a fresh address each time; the proxy saw 203.0.113.50.
      expect(await viaProxy(`198.51.100.${attempt}, 203.0.113.50`), `attempt ${attempt}`).toEqual({ outcome: 'wrong' });
    }
    expect(await viaProxy('203.0.113.50')).toMatchObject({ outcome: 'throttled' });
    expect(await viaProxy('203.0.113.50, 203.0.113.51')).toEqual({ outcome: 'wrong' });
    // The proxy itself (its own address) is another network.
    expect(await viaProxy('')).toEqual({ outcome: 'wrong' });
  });
});

test.describe('settings that would weaken the perimeter stop the server at start-up', () => {
  for (const { variable, value } of [
    { variable: 'TRUST_PROXY', value: 'yes-please' },
    { variable: 'WEBHOOK_SECRET', value: 'whsec_AA==' },
  ]) {
    test(`${variable}=${value}`, async () => {
      test.setTimeout(90_000);
      const started = startNextServer({
        port: REFUSED_PORT,
        dataDir: freshDataDir(),
        env: { APP_URL: `http://localhost:${REFUSED_PORT}`, [variable]: value },
      });
      const failure = await started.then(
        async (server) => {
          await server.stop();
          return '';
        },
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/exited \(1\)/);
      expect(failure).toContain('Verification Desk cannot start.');
      expect(failure).toContain(variable);
      if (variable === 'WEBHOOK_SECRET') expect(failure).not.toContain('AA==');
    });
  }
});
