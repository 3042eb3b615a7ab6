// Failed sign-in throttling against a real (in-memory) PGlite database. Every call gets an
// explicit `now`, so windows are tested without waiting.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { signInFailures } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/embedded-database';
import {
  attemptSignIn,
  checkSignInThrottle,
  clearAccountFailures,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_ADDRESS,
  recordSignInFailure,
  THROTTLE_WINDOW_MS,
} from './throttle';

const T0 = new Date('2030-03-01T09:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;
const WINDOW_SECONDS = THROTTLE_WINDOW_MS / 1000;

async function fail(times: number, email: string | ((i: number) => string), ip: string | null, now = T0) {
  for (let i = 0; i < times; i++) await recordSignInFailure(typeof email === 'string' ? email : email(i), ip, now);
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  await getDb();
});

beforeEach(async () => {
  await (await getDb()).delete(signInFailures);
});

afterAll(async () => {
  await closeDatabases();
});

describe('per account', () => {
  it('allows up to the limit minus one failure, refuses at the limit with a retry time inside the window', async () => {
    await fail(MAX_FAILURES_PER_ACCOUNT - 1, 'alice@example.com', null);
    expect(await checkSignInThrottle('alice@example.com', null, T0)).toEqual({ allowed: true });

    await fail(1, 'alice@example.com', null);
    const verdict = await checkSignInThrottle('alice@example.com', null, at(5 * MINUTE));
    expect(verdict.allowed).toBe(false);
    // The window started with the first failure at T0, so 10 of its 15 minutes are left.
    expect(verdict).toEqual({ allowed: false, retryAfterSeconds: WINDOW_SECONDS - 5 * 60 });

    const immediately = await checkSignInThrottle('alice@example.com', null, T0);
    expect(immediately.allowed).toBe(false);
    if (!immediately.allowed) {
      expect(immediately.retryAfterSeconds).toBeGreaterThan(0);
      expect(immediately.retryAfterSeconds).toBeLessThanOrEqual(WINDOW_SECONDS);
    }
  });

  it('is refused from any address once the account is over its limit', async () => {
    await fail(MAX_FAILURES_PER_ACCOUNT, 'alice@example.com', '203.0.113.1');
    expect((await checkSignInThrottle('alice@example.com', '198.51.100.50', T0)).allowed).toBe(false);
    expect((await checkSignInThrottle('alice@example.com', null, T0)).allowed).toBe(false);
  });

  it('does not affect another e-mail address', async () => {
    await fail(MAX_FAILURES_PER_ACCOUNT, 'alice@example.com', null);
    expect(await checkSignInThrottle('bob@example.com', null, T0)).toEqual({ allowed: true });
  });

  it('counts differences of case and surrounding whitespace as the same account', async () => {
    await fail(
      MAX_FAILURES_PER_ACCOUNT,
      (i) => ['Alice@Example.com', ' alice@example.com ', 'ALICE@EXAMPLE.COM', 'alice@example.com\t', 'aLiCe@eXaMpLe.CoM'][i % 5]!,
      null,
    );
    expect((await checkSignInThrottle('alice@example.com', null, T0)).allowed).toBe(false);
    expect((await checkSignInThrottle('  ALICE@example.COM', null, T0)).allowed).toBe(false);
    const rows = await (await getDb()).select().from(signInFailures);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.failures).toBe(MAX_FAILURES_PER_ACCOUNT);
  });

  it('counts failures for accounts that do not exist exactly like those that do', async () => {
    // No staff table is consulted: the verdict cannot reveal which addresses have accounts.
    await fail(MAX_FAILURES_PER_ACCOUNT, 'nobody-here@example.com', null);
    expect((await checkSignInThrottle('nobody-here@example.com', null, T0)).allowed).toBe(false);
  });
});

describe('per address', () => {
  const manyEmails = (i: number) => `user${i}@example.com`;

  it('throttles every e-mail from an address after its limit across different e-mails, but not from another address', async () => {
    await fail(MAX_FAILURES_PER_ADDRESS - 1, manyEmails, '203.0.113.9');
    // Each account has failed once only; the address is one short of its limit.
    expect(await checkSignInThrottle('fresh@example.com', '203.0.113.9', T0)).toEqual({ allowed: true });

    await fail(1, 'one-more@example.com', '203.0.113.9');
    for (const email of ['fresh@example.com', 'user0@example.com', 'someone@else.org']) {
      const verdict = await checkSignInThrottle(email, '203.0.113.9', at(MINUTE));
      expect({ email, verdict }).toEqual({ email, verdict: { allowed: false, retryAfterSeconds: WINDOW_SECONDS - 60 } });
    }
    expect(await checkSignInThrottle('fresh@example.com', '198.51.100.50', T0)).toEqual({ allowed: true });
    expect(await checkSignInThrottle('fresh@example.com', null, T0)).toEqual({ allowed: true });
    // The accounts themselves are below their limit: from elsewhere they may still try.
    expect(await checkSignInThrottle('user0@example.com', '198.51.100.50', T0)).toEqual({ allowed: true });
  });

  it('does not count failures without an address against any address', async () => {
    await fail(MAX_FAILURES_PER_ADDRESS + 5, manyEmails, null);
    const rows = await (await getDb()).select().from(signInFailures);
    expect(rows.every((row) => row.key.startsWith('account:'))).toBe(true);
    expect(await checkSignInThrottle('fresh@example.com', '203.0.113.9', T0)).toEqual({ allowed: true });
  });
});

describe('windows', () => {
  it('lets a refused account in again once its window has run out', async () => {
    await fail(MAX_FAILURES_PER_ACCOUNT, 'alice@example.com', '203.0.113.1');
    expect((await checkSignInThrottle('alice@example.com', null, at(THROTTLE_WINDOW_MS - 1000))).allowed).toBe(false);
    expect(await checkSignInThrottle('alice@example.com', null, at(THROTTLE_WINDOW_MS))).toEqual({ allowed: true });
    expect(await checkSignInThrottle('alice@example.com', null, at(THROTTLE_WINDOW_MS + MINUTE))).toEqual({ allowed: true });
  });

  it('starts counting again at 1 after the window, with a new window start', async () => {
    await fail(MAX_FAILURES_PER_ACCOUNT, 'alice@example.com', null);
    const later = at(THROTTLE_WINDOW_MS + 2 * MINUTE);
    await fail(1, 'alice@example.com', null, later);

    const [row] = await (await getDb()).select().from(signInFailures);
    expect(row).toMatchObject({ failures: 1, windowStartedAt: later });
    expect(await checkSignInThrottle('alice@example.com', null, later)).toEqual({ allowed: true });

    // A fresh full set of failures in the new window throttles again, until the new window ends.
    await fail(MAX_FAILURES_PER_ACCOUNT - 1, 'alice@example.com', null, at(THROTTLE_WINDOW_MS + 3 * MINUTE));
    expect(await checkSignInThrottle('alice@example.com', null, at(THROTTLE_WINDOW_MS + 3 * MINUTE))).toEqual({
      allowed: false,
      retryAfterSeconds: WINDOW_SECONDS - 60,
    });
  });

  it('keeps the window start of the first failure: later failures inside it do not extend it', async () => {
    await fail(1, 'alice@example.com', null, T0);
    await fail(MAX_FAILURES_PER_ACCOUNT - 1, 'alice@example.com', null, at(10 * MINUTE));
    expect(await checkSignInThrottle('alice@example.com', null, at(10 * MINUTE))).toEqual({ allowed: false, retryAfterSeconds: 5 * 60 });
  });
});

describe('clearAccountFailures', () => {
  it('clears the account (whatever the case of the e-mail) but not the address', async () => {
    await fail(MAX_FAILURES_PER_ADDRESS, 'alice@example.com', '203.0.113.9');
    expect((await checkSignInThrottle('alice@example.com', '198.51.100.50', T0)).allowed).toBe(false);

    await clearAccountFailures('  Alice@Example.COM ');

    expect(await checkSignInThrottle('alice@example.com', '198.51.100.50', T0)).toEqual({ allowed: true });
    // One success must not reset an attack from that address.
    expect((await checkSignInThrottle('alice@example.com', '203.0.113.9', T0)).allowed).toBe(false);
    expect((await checkSignInThrottle('someone@else.org', '203.0.113.9', T0)).allowed).toBe(false);
    const rows = await (await getDb()).select().from(signInFailures);
    expect(rows).toEqual([expect.objectContaining({ key: expect.stringMatching(/^ip:/), failures: MAX_FAILURES_PER_ADDRESS })]);
  });

  it('leaves other accounts alone', async () => {
    await fail(MAX_FAILURES_PER_ACCOUNT, 'alice@example.com', null);
    await fail(MAX_FAILURES_PER_ACCOUNT, 'bob@example.com', null);
    await clearAccountFailures('alice@example.com');
    expect(await checkSignInThrottle('alice@example.com', null, T0)).toEqual({ allowed: true });
    expect((await checkSignInThrottle('bob@example.com', null, T0)).allowed).toBe(false);
  });
});

describe('storage', () => {
  it('keeps no e-mail address or IP address in clear', async () => {
    const emails = ['Alice.Martin@Example.com', 'bob.stone@example.org'];
    const ips = ['203.0.113.77', '2001:db8::beef'];
    for (const email of emails) for (const ip of ips) await recordSignInFailure(email, ip, T0);

    const rows = await (await getDb()).select().from(signInFailures);
    expect(rows).toHaveLength(emails.length + ips.length);
    for (const row of rows) expect(row.key).toMatch(/^(account|ip):[0-9a-f]{64}$/);

    const stored = JSON.stringify(rows).toLowerCase();
    const secrets = [
      ...emails.map((e) => e.toLowerCase()),
      ...emails.map((e) => e.split('@')[0]!.toLowerCase()),
      'example.com',
      'example.org',
      ...ips,
      'db8::beef',
    ];
    for (const secret of secrets) expect(stored).not.toContain(secret);
  });
});

describe('attemptSignIn', () => {
  it('lets a burst of simultaneous wrong guesses try only as many passwords as the limit allows', async () => {
    let passwordChecks = 0;
    const wrongPassword = async () => {
      passwordChecks += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return null;
    };
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => attemptSignIn('burst@example.com', '203.0.113.50', wrongPassword)));
    expect(passwordChecks).toBe(MAX_FAILURES_PER_ACCOUNT);
    expect(outcomes.filter((o) => o.outcome === 'failed')).toHaveLength(MAX_FAILURES_PER_ACCOUNT);
    expect(outcomes.filter((o) => o.outcome === 'throttled')).toHaveLength(12 - MAX_FAILURES_PER_ACCOUNT);
  });

  it('clears the account after a success and passes the value on', async () => {
    await attemptSignIn('ok@example.com', null, async () => null);
    const outcome = await attemptSignIn('ok@example.com', null, async () => 'user-1');
    expect(outcome).toEqual({ outcome: 'signed-in', value: 'user-1' });
    expect(await (await getDb()).select().from(signInFailures)).toHaveLength(0);
  });
});
