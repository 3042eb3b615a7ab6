// Failed sign-in throttling against a real (in-memory) PGlite database. Every call gets an
// explicit `now`, so delays and windows are tested without waiting.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb, schema } from '@/lib/db';
import { signInThrottle } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { type OtherInstanceDb, openOtherInstanceDb } from '@/test/support/second-instance';
import {
  ACCOUNT_WINDOW_MS,
  attemptSignIn,
  checkSignInThrottle,
  MAX_FAILURES_PER_ACCOUNT,
  MAX_FAILURES_PER_NETWORK,
  NETWORK_WINDOW_MS,
  networkOf,
  PAIR_FREE_FAILURES,
  PAIR_MEMORY_MS,
  pairDelayMs,
  recordSignInFailure,
  recordSignInSuccess,
} from './throttle';

const T0 = new Date('2030-03-01T09:00:00.000Z');
const MINUTE = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);

const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.10';

async function fail(times: number, email: string | ((i: number) => string), ip: string | null | ((i: number) => string), now = T0) {
  for (let i = 0; i < times; i++) {
    await recordSignInFailure(typeof email === 'string' ? email : email(i), typeof ip === 'function' ? ip(i) : ip, now);
  }
}

const rows = async () => (await getDb()).select().from(signInThrottle);

let other: OtherInstanceDb<typeof schema>;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  other = openOtherInstanceDb(schema, await getDb());
});

beforeEach(async () => {
  await (await getDb()).delete(signInThrottle);
});

afterAll(async () => {
  await other.close();
  await closeDatabases();
});

describe('one account from one network (the pair)', () => {
  it('allows 5 failures, then makes the pair wait 1 minute, doubling with each further failure to at most 15', async () => {
    await fail(PAIR_FREE_FAILURES - 1, 'alice@example.com', ATTACKER);
    expect(await checkSignInThrottle('alice@example.com', ATTACKER, T0)).toEqual({ allowed: true });

    await fail(1, 'alice@example.com', ATTACKER);
    expect(await checkSignInThrottle('alice@example.com', ATTACKER, T0)).toEqual({ allowed: false, scope: 'pair', retryAfterSeconds: 60 });
    expect(await checkSignInThrottle('alice@example.com', ATTACKER, at(MINUTE))).toEqual({ allowed: true });

    // Each further failure (made once the wait is over) doubles the wait.
    const waits: number[] = [];
    let now = T0.getTime();
    for (let failure = PAIR_FREE_FAILURES + 1; failure <= PAIR_FREE_FAILURES + 6; failure++) {
      now += pairDelayMs(failure - 1);
      await fail(1, 'alice@example.com', ATTACKER, new Date(now));
      const verdict = await checkSignInThrottle('alice@example.com', ATTACKER, new Date(now));
      waits.push(verdict.allowed ? 0 : verdict.retryAfterSeconds / 60);
    }
    expect(waits).toEqual([2, 4, 8, 15, 15, 15]);
  });

  it('counts case and surrounding whitespace of the e-mail as the same account, and unknown accounts like real ones', async () => {
    await fail(
      PAIR_FREE_FAILURES,
      (i) => ['Alice@Example.com', ' alice@example.com ', 'ALICE@EXAMPLE.COM', 'alice@example.com\t', 'aLiCe@eXaMpLe.CoM'][i % 5]!,
      ATTACKER,
    );
    expect((await checkSignInThrottle('  ALICE@example.COM', ATTACKER, T0)).allowed).toBe(false);
    // No staff table is consulted: the verdict cannot reveal which addresses have accounts.
    await fail(PAIR_FREE_FAILURES, 'nobody-here@example.com', ATTACKER);
    expect(await checkSignInThrottle('nobody-here@example.com', ATTACKER, T0)).toMatchObject({ allowed: false, scope: 'pair' });
  });

  it("forgets a pair's failures a day after its last one", async () => {
    await fail(PAIR_FREE_FAILURES + 3, 'alice@example.com', ATTACKER);
    await fail(1, 'alice@example.com', ATTACKER, at(PAIR_MEMORY_MS + MINUTE));
    expect(await checkSignInThrottle('alice@example.com', ATTACKER, at(PAIR_MEMORY_MS + MINUTE))).toEqual({ allowed: true });
  });

  it('a success ends the run of failures for that pair', async () => {
    await fail(PAIR_FREE_FAILURES, 'alice@example.com', OWNER);
    await recordSignInSuccess('alice@example.com', OWNER, at(MINUTE));
    await fail(1, 'alice@example.com', OWNER, at(MINUTE));
    expect(await checkSignInThrottle('alice@example.com', OWNER, at(MINUTE))).toEqual({ allowed: true });
  });
});

describe('a stranger cannot lock the real person out', () => {
  it("5 (or 50) wrong guesses from the attacker's network leave the account open from the owner's", async () => {
    await fail(PAIR_FREE_FAILURES, 'alice@example.com', ATTACKER);
    expect((await checkSignInThrottle('alice@example.com', ATTACKER, T0)).allowed).toBe(false);
    expect(await checkSignInThrottle('alice@example.com', OWNER, T0)).toEqual({ allowed: true });

    await fail(50 - PAIR_FREE_FAILURES, 'alice@example.com', ATTACKER);
    expect(await checkSignInThrottle('alice@example.com', OWNER, T0)).toEqual({ allowed: true });
  });

  it('a distributed attack closes the account at 100 failures an hour, except to networks it signed in from', async () => {
    await recordSignInSuccess('alice@example.com', OWNER, at(-2 * 24 * 60 * MINUTE));
    // 100 networks, one guess each: no pair and no network reaches its own limit.
    await fail(MAX_FAILURES_PER_ACCOUNT - 1, 'alice@example.com', (i) => `192.0.2.${i}`);
    expect(await checkSignInThrottle('alice@example.com', '203.0.113.200', at(MINUTE))).toEqual({ allowed: true });
    await fail(1, 'alice@example.com', '203.0.113.99');

    expect(await checkSignInThrottle('alice@example.com', '203.0.113.200', at(10 * MINUTE))).toEqual({
      allowed: false,
      scope: 'account',
      retryAfterSeconds: (ACCOUNT_WINDOW_MS - 10 * MINUTE) / 1000,
    });
    expect(await checkSignInThrottle('alice@example.com', null, at(10 * MINUTE))).toMatchObject({ allowed: false, scope: 'account' });
    // The owner's usual network still gets in; the ceiling lifts after the hour for everyone.
    expect(await checkSignInThrottle('alice@example.com', OWNER, at(10 * MINUTE))).toEqual({ allowed: true });
    expect(await checkSignInThrottle('alice@example.com', '203.0.113.200', at(ACCOUNT_WINDOW_MS))).toEqual({ allowed: true });
  });
});

describe('one network across accounts', () => {
  const manyEmails = (i: number) => `user${i}@example.com`;

  it('refuses every account from a network after 20 failures in 15 minutes, but not from another network', async () => {
    await fail(MAX_FAILURES_PER_NETWORK - 1, manyEmails, ATTACKER);
    expect(await checkSignInThrottle('fresh@example.com', ATTACKER, T0)).toEqual({ allowed: true });

    await fail(1, 'one-more@example.com', ATTACKER);
    for (const email of ['fresh@example.com', 'user0@example.com']) {
      expect(await checkSignInThrottle(email, ATTACKER, at(MINUTE))).toEqual({
        allowed: false,
        scope: 'network',
        retryAfterSeconds: 14 * 60,
      });
    }
    expect(await checkSignInThrottle('fresh@example.com', OWNER, T0)).toEqual({ allowed: true });
    expect(await checkSignInThrottle('fresh@example.com', ATTACKER, at(NETWORK_WINDOW_MS))).toEqual({ allowed: true });
  });

  it('counts all of an IPv6 /64 as one network, so rotating addresses within it does not help', async () => {
    await fail(MAX_FAILURES_PER_NETWORK, manyEmails, (i) => `2001:db8:1:2::${(i + 1).toString(16)}`);
    expect(await checkSignInThrottle('fresh@example.com', '2001:db8:1:2:ffff:1:2:3', T0)).toMatchObject({
      allowed: false,
      scope: 'network',
    });
    expect(await checkSignInThrottle('fresh@example.com', '2001:db8:1:3::1', T0)).toEqual({ allowed: true });
  });

  it('counts unknown addresses (next dev) as one network', async () => {
    await fail(MAX_FAILURES_PER_NETWORK, manyEmails, null);
    expect(await checkSignInThrottle('fresh@example.com', null, T0)).toMatchObject({ allowed: false, scope: 'network' });
    expect(await checkSignInThrottle('fresh@example.com', OWNER, T0)).toEqual({ allowed: true });
  });

  it('one success does not reset the count of the network', async () => {
    await fail(MAX_FAILURES_PER_NETWORK, manyEmails, ATTACKER);
    await recordSignInSuccess('mallory@example.com', ATTACKER, T0);
    expect(await checkSignInThrottle('someone@else.org', ATTACKER, T0)).toMatchObject({ allowed: false, scope: 'network' });
  });
});

describe('networkOf', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:1:2:3', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    [null, 'unknown'],
  ])('%j → %j', (ip, network) => {
    expect(networkOf(ip)).toBe(network);
  });
});

describe('storage', () => {
  it('keeps no e-mail address or IP address in clear, and drops counters that no longer count', async () => {
    const emails = ['Alice.Martin@Example.com', 'bob.stone@example.org'];
    const ips = ['203.0.113.77', '2001:db8::beef'];
    for (const email of emails) for (const ip of ips) await recordSignInFailure(email, ip, T0);
    await recordSignInSuccess(emails[0]!, ips[0]!, T0);

    const stored = await rows();
    for (const row of stored) expect(row.key).toMatch(/^(pair|network|account|known):[0-9a-f]{64}$/);
    const text = JSON.stringify(stored).toLowerCase();
    for (const secret of [
      ...emails.map((e) => e.toLowerCase()),
      'alice',
      'example.com',
      'example.org',
      ...ips,
      '2001:db8',
      'db8::beef',
      '203.0.113',
    ]) {
      expect(text).not.toContain(secret);
    }

    // Two days later only the known network (30 days) remains.
    await recordSignInFailure('carol@example.com', '192.0.2.1', at(2 * 24 * 60 * MINUTE));
    const later = await rows();
    expect(later.filter((row) => row.key.startsWith('known:'))).toHaveLength(1);
    expect(later.filter((row) => !row.key.startsWith('known:'))).toHaveLength(3);
  });
});

describe('attemptSignIn', () => {
  it('never checks the password of a throttled attempt', async () => {
    let passwordChecks = 0;
    const wrongPassword = async () => {
      passwordChecks += 1;
      return null;
    };
    for (let i = 0; i < PAIR_FREE_FAILURES; i++)
      expect(await attemptSignIn('victim@example.com', ATTACKER, wrongPassword)).toEqual({ outcome: 'failed' });
    expect(passwordChecks).toBe(PAIR_FREE_FAILURES);

    for (let i = 0; i < 10; i++) {
      expect(await attemptSignIn('victim@example.com', ATTACKER, wrongPassword)).toMatchObject({ outcome: 'throttled', scope: 'pair' });
    }
    // Throttled by the network's ceiling too: still no password check.
    await fail(MAX_FAILURES_PER_NETWORK, (i) => `other${i}@example.com`, ATTACKER, new Date());
    expect(await attemptSignIn('fresh@example.com', ATTACKER, wrongPassword)).toMatchObject({ outcome: 'throttled', scope: 'network' });
    expect(passwordChecks).toBe(PAIR_FREE_FAILURES);

    // The owner, from elsewhere, gets a real password check and in.
    expect(await attemptSignIn('victim@example.com', OWNER, async () => 'user-1')).toEqual({ outcome: 'signed-in', value: 'user-1' });
  });

  it('lets a burst of simultaneous wrong guesses try only as many passwords as the limits allow', async () => {
    let passwordChecks = 0;
    const wrongPassword = async () => {
      passwordChecks += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return null;
    };
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => attemptSignIn('burst@example.com', ATTACKER, wrongPassword)));
    expect(passwordChecks).toBe(PAIR_FREE_FAILURES);
    expect(outcomes.filter((o) => o.outcome === 'throttled')).toHaveLength(12 - PAIR_FREE_FAILURES);

    // Across accounts, one network gets no more than its ceiling at once either.
    passwordChecks = 0;
    await Promise.all(Array.from({ length: 40 }, (_, i) => attemptSignIn(`spray${i}@example.com`, OWNER, wrongPassword)));
    expect(passwordChecks).toBe(MAX_FAILURES_PER_NETWORK);
  });
});

describe('attemptSignIn on two instances at once (on PostgreSQL, two independent pools)', () => {
  const slowWrongPassword = (checks: { count: number }) => async () => {
    checks.count += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return null;
  };

  it('counts every failure of one e-mail and network, whichever instance it lands on: 40 at once get 5 guesses', async () => {
    const checks = { count: 0 };
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        attemptSignIn('twice@example.com', ATTACKER, slowWrongPassword(checks), i % 2 === 0 ? {} : { db: other.db }),
      ),
    );
    expect(checks.count).toBe(PAIR_FREE_FAILURES);
    expect(outcomes.filter((o) => o.outcome === 'failed')).toHaveLength(PAIR_FREE_FAILURES);
    expect(outcomes.filter((o) => o.outcome === 'throttled')).toHaveLength(40 - PAIR_FREE_FAILURES);
    // The counters hold every failure that was made: 5 for the pair, the network and the account.
    expect((await rows()).map((row) => row.count)).toEqual([PAIR_FREE_FAILURES, PAIR_FREE_FAILURES, PAIR_FREE_FAILURES]);
  });

  it('holds one network to its ceiling across instances: 40 accounts sprayed at once get 20 guesses', async () => {
    const checks = { count: 0 };
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        attemptSignIn(`spray${i}@example.com`, ATTACKER, slowWrongPassword(checks), i % 2 === 0 ? {} : { db: other.db }),
      ),
    );
    expect(checks.count).toBe(MAX_FAILURES_PER_NETWORK);
    const network = (await rows()).filter((row) => row.key.startsWith('network:'));
    expect(network.map((row) => row.count)).toEqual([MAX_FAILURES_PER_NETWORK]);
  });

  it('leaves no failure counted for a sign-in that succeeded, nor for a check that could not run', async () => {
    expect(await attemptSignIn('ok@example.com', OWNER, async () => 'user-ok', { db: other.db })).toEqual({
      outcome: 'signed-in',
      value: 'user-ok',
    });
    await expect(
      attemptSignIn('ok@example.com', OWNER, async () => {
        throw new Error('the staff table could not be read');
      }),
    ).rejects.toThrow('could not be read');
    const counts = (await rows()).filter((row) => !row.key.startsWith('known:')).map((row) => row.count);
    expect(counts.every((count) => count === 0)).toBe(true);
    expect((await rows()).filter((row) => row.key.startsWith('known:'))).toHaveLength(1);
  });
});
