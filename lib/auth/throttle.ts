// Throttling of failed sign-ins: password guessing stays slow, and a stranger's wrong guesses
// cannot lock the real person out. Three counters, each answering one question:
//
//   - pair (e-mail address × client network): the guesser's own counter. 5 failures are free,
//     then each further one waits twice as long as the one before: 1, 2, 4, 8, then 15 minutes
//     at most. Only this pair waits; the same account from another network does not.
//   - network: one network guessing at many accounts, 20 failures per 15 minutes.
//   - account: a guess from many networks at one account, 100 failures per hour. Only a
//     distributed attack gets there (one network gives about 20 guesses per 15 minutes, spread
//     as it likes), and even then the networks the account has signed in from before (within
//     30 days) are spared, so the real person at their usual place still gets in.
//
// The e-mail typed counts whether or not an account has it, so no answer tells which accounts
// exist. A network is an IPv4 address or an IPv6 /64 (one subscriber gets a whole /64, and could
// otherwise use a fresh address for every guess). Keys are keyed hashes (HMAC with the auth
// secret): the table holds no e-mail or IP address, and the hashes cannot be reversed by hashing
// every address. An unknown address (only under `next dev`, lib/auth/request-info.ts) counts as
// one network: guessing stays slow there, at the price of a lock-out nobody else can cause.
//
// A refused attempt is refused before the password is looked at: it costs the server one small
// query, never a password hash.
import 'server-only';
import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { eq, inArray, lt, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { signInThrottle } from '@/lib/db/schema';
import { getAuthSecret } from './auth';

const MINUTE = 60_000;
export const PAIR_FREE_FAILURES = 5;
export const PAIR_FIRST_DELAY_MS = MINUTE;
export const PAIR_MAX_DELAY_MS = 15 * MINUTE;
/** A pair's run of failures is forgotten this long after its last failure. */
export const PAIR_MEMORY_MS = 24 * 60 * MINUTE;
export const NETWORK_WINDOW_MS = 15 * MINUTE;
export const MAX_FAILURES_PER_NETWORK = 20;
export const ACCOUNT_WINDOW_MS = 60 * MINUTE;
export const MAX_FAILURES_PER_ACCOUNT = 100;
/** How long a network an account signed in from stays exempt from the account's ceiling. */
export const KNOWN_NETWORK_MS = 30 * 24 * 60 * MINUTE;

/** Which counter refused: the answer says so, so the person knows what to do. */
export type ThrottleScope = 'pair' | 'network' | 'account';
export type ThrottleVerdict = { allowed: true } | { allowed: false; scope: ThrottleScope; retryAfterSeconds: number };

/** How long a pair waits after its `failures`-th failure in a row. */
export function pairDelayMs(failures: number): number {
  if (failures < PAIR_FREE_FAILURES) return 0;
  return Math.min(PAIR_MAX_DELAY_MS, PAIR_FIRST_DELAY_MS * 2 ** Math.min(failures - PAIR_FREE_FAILURES, 20));
}

/**
 * The network an address belongs to for throttling: an IPv4 address itself, an IPv6 address's
 * /64; null (unknown) is one network of its own.
 */
export function networkOf(ip: string | null): string {
  if (ip === null) return 'unknown';
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  // An embedded IPv4 address (e.g. 64:ff9b::192.0.2.1) sits in the last two groups, past the /64.
  const full = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

type Keys = { pair: string; network: string; account: string; known: string };

async function keysOf(email: string, ip: string | null): Promise<Keys> {
  const secret = await getAuthSecret();
  const account = email.trim().toLowerCase();
  const network = networkOf(ip);
  const hash = (kind: keyof Keys, value: string) => `${kind}:${createHmac('sha256', secret).update(`${kind}:${value}`).digest('hex')}`;
  return {
    pair: hash('pair', `${account}\n${network}`),
    network: hash('network', network),
    account: hash('account', account),
    known: hash('known', `${account}\n${network}`),
  };
}

export async function checkSignInThrottle(email: string, ip: string | null, now = new Date()): Promise<ThrottleVerdict> {
  const keys = await keysOf(email, ip);
  const db = await getDb();
  const rows = await db
    .select()
    .from(signInThrottle)
    .where(inArray(signInThrottle.key, Object.values(keys)));
  const live = new Map(rows.filter((row) => row.expiresAt > now).map((row) => [row.key, row]));
  const waits: Array<{ scope: ThrottleScope; until: number }> = [];

  const pair = live.get(keys.pair);
  if (pair) waits.push({ scope: 'pair', until: pair.lastAt.getTime() + pairDelayMs(pair.count) });
  const network = live.get(keys.network);
  if (network && network.count >= MAX_FAILURES_PER_NETWORK) {
    waits.push({ scope: 'network', until: network.windowStartedAt.getTime() + NETWORK_WINDOW_MS });
  }
  const account = live.get(keys.account);
  if (account && account.count >= MAX_FAILURES_PER_ACCOUNT && !live.has(keys.known)) {
    waits.push({ scope: 'account', until: account.windowStartedAt.getTime() + ACCOUNT_WINDOW_MS });
  }

  const longest = waits.filter((wait) => wait.until > now.getTime()).sort((a, b) => b.until - a.until)[0];
  if (!longest) return { allowed: true };
  return { allowed: false, scope: longest.scope, retryAfterSeconds: Math.ceil((longest.until - now.getTime()) / 1000) };
}

/**
 * Counts one failure in a counter: in a fixed window (network, account) that starts again at 1
 * once it has run out, or in a run (pair) that is forgotten `PAIR_MEMORY_MS` after its last failure.
 */
async function countFailure(key: string, now: Date, window: { fixedMs: number } | { memoryMs: number }) {
  const db = await getDb();
  const expired = sql`${signInThrottle.expiresAt} <= ${now.toISOString()}::timestamptz`;
  const expiresAt = new Date(now.getTime() + ('fixedMs' in window ? window.fixedMs : window.memoryMs));
  const renewedExpiry =
    'fixedMs' in window
      ? sql`case when ${expired} then ${expiresAt.toISOString()}::timestamptz else ${signInThrottle.expiresAt} end`
      : sql`${expiresAt.toISOString()}::timestamptz`;
  await db
    .insert(signInThrottle)
    .values({ key, count: 1, windowStartedAt: now, lastAt: now, expiresAt })
    .onConflictDoUpdate({
      target: signInThrottle.key,
      set: {
        count: sql`case when ${expired} then 1 else ${signInThrottle.count} + 1 end`,
        windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${signInThrottle.windowStartedAt} end`,
        lastAt: now,
        expiresAt: renewedExpiry,
      },
    });
}

export async function recordSignInFailure(email: string, ip: string | null, now = new Date()): Promise<void> {
  const keys = await keysOf(email, ip);
  await countFailure(keys.pair, now, { memoryMs: PAIR_MEMORY_MS });
  await countFailure(keys.network, now, { fixedMs: NETWORK_WINDOW_MS });
  await countFailure(keys.account, now, { fixedMs: ACCOUNT_WINDOW_MS });
  // Counters that no longer count go, so the table stays as small as the recent failures.
  await (await getDb()).delete(signInThrottle).where(lt(signInThrottle.expiresAt, now));
}

/**
 * A successful sign-in ends the pair's run of failures and makes the network known to the
 * account. The network's and the account's counts stay: one success must not reset an attack.
 */
export async function recordSignInSuccess(email: string, ip: string | null, now = new Date()): Promise<void> {
  const keys = await keysOf(email, ip);
  const db = await getDb();
  await db.delete(signInThrottle).where(eq(signInThrottle.key, keys.pair));
  const expiresAt = new Date(now.getTime() + KNOWN_NETWORK_MS);
  await db
    .insert(signInThrottle)
    .values({ key: keys.known, count: 1, windowStartedAt: now, lastAt: now, expiresAt })
    .onConflictDoUpdate({ target: signInThrottle.key, set: { count: sql`${signInThrottle.count} + 1`, lastAt: now, expiresAt } });
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task of any of `names` has settled. Per account and per
 * network, check → password → record happen strictly one after another: without this, a burst
 * of simultaneous attempts would all pass the check before any failure is recorded and get that
 * many guesses. (One server process owns the embedded database, so an in-process queue
 * serialises every attempt there is.)
 */
function inTurn<T>(names: string[], task: () => Promise<T>): Promise<T> {
  const previous = names.map((name) => queues.get(name) ?? Promise.resolve());
  const run = Promise.all(previous).then(task);
  const settled = run.catch(() => undefined);
  for (const name of names) queues.set(name, settled);
  void settled.then(() => {
    for (const name of names) if (queues.get(name) === settled) queues.delete(name);
  });
  return run;
}

/**
 * One sign-in attempt: refused without calling `signIn` (the password check) when throttled;
 * otherwise `signIn` runs and its outcome is counted. `signIn` answers null for a failure.
 */
export async function attemptSignIn<T>(
  email: string,
  ip: string | null,
  signIn: () => Promise<T | null>,
): Promise<
  { outcome: 'signed-in'; value: T } | { outcome: 'failed' } | { outcome: 'throttled'; scope: ThrottleScope; retryAfterSeconds: number }
> {
  return inTurn([`account:${email.trim().toLowerCase()}`, `network:${networkOf(ip)}`], async () => {
    const verdict = await checkSignInThrottle(email, ip);
    if (!verdict.allowed) return { outcome: 'throttled' as const, scope: verdict.scope, retryAfterSeconds: verdict.retryAfterSeconds };
    const value = await signIn();
    if (value === null) {
      await recordSignInFailure(email, ip);
      return { outcome: 'failed' as const };
    }
    await recordSignInSuccess(email, ip);
    return { outcome: 'signed-in' as const, value };
  });
}
