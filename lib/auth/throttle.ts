// Throttling of failed sign-ins: password guessing stays slow, and a stranger's wrong guesses
// cannot lock the real person out. Three counters, each answering one question:
//
//   - pair (e-mail address × client network): the guesser's own counter. 5 failures are free,
//     then each further one waits twice as long as the one before: 1, 2, 4, 8, then 15 minutes
//     at most. Only this pair waits; the same account from another network does not.
//   - network: one network guessing at many accounts, 20 failures per 15 minutes. It closes the
//     network only to the accounts that have not signed in from it before (within 30 days), so a
//     stranger behind the same address (one office's NAT, one IPv6 /64) cannot lock out the staff
//     who work there.
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
// transaction, never a password hash. Several instances share the counters, and each attempt is
// checked and counted in one step under database locks (reserveAttempt), so a burst spread over
// the instances gets no more guesses than it would from one.
import 'server-only';
import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { eq, inArray, lt, sql } from 'drizzle-orm';
import { type Db, getDb } from '@/lib/db';
import { signInThrottle } from '@/lib/db/schema';
import { KEYED_LOCK_NAMESPACE } from '@/lib/platform/advisory-locks';
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

/** The database, or a transaction on it: every counter query below runs on either. */
type Handle = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

async function judge(db: Handle, keys: Keys, now: Date): Promise<ThrottleVerdict> {
  const rows = await db
    .select()
    .from(signInThrottle)
    .where(inArray(signInThrottle.key, Object.values(keys)));
  const live = new Map(rows.filter((row) => row.expiresAt > now).map((row) => [row.key, row]));
  const waits: Array<{ scope: ThrottleScope; until: number }> = [];

  const pair = live.get(keys.pair);
  if (pair) waits.push({ scope: 'pair', until: pair.lastAt.getTime() + pairDelayMs(pair.count) });
  // A network the account has signed in from is spared both ceilings: strangers behind the same
  // address (one office, one /64) cannot close it to the person, whose own guesses from there
  // still meet the pair's counter above.
  const known = live.has(keys.known);
  const network = live.get(keys.network);
  if (network && network.count >= MAX_FAILURES_PER_NETWORK && !known) {
    waits.push({ scope: 'network', until: network.windowStartedAt.getTime() + NETWORK_WINDOW_MS });
  }
  const account = live.get(keys.account);
  if (account && account.count >= MAX_FAILURES_PER_ACCOUNT && !known) {
    waits.push({ scope: 'account', until: account.windowStartedAt.getTime() + ACCOUNT_WINDOW_MS });
  }

  const longest = waits.filter((wait) => wait.until > now.getTime()).sort((a, b) => b.until - a.until)[0];
  if (!longest) return { allowed: true };
  return { allowed: false, scope: longest.scope, retryAfterSeconds: Math.ceil((longest.until - now.getTime()) / 1000) };
}

export async function checkSignInThrottle(email: string, ip: string | null, now = new Date()): Promise<ThrottleVerdict> {
  return judge(await getDb(), await keysOf(email, ip), now);
}

/**
 * Counts one failure in a counter: in a fixed window (network, account) that starts again at 1
 * once it has run out, or in a run (pair) that is forgotten `PAIR_MEMORY_MS` after its last failure.
 */
async function countFailure(db: Handle, key: string, now: Date, window: { fixedMs: number } | { memoryMs: number }) {
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

async function countFailures(db: Handle, keys: Keys, now: Date): Promise<void> {
  await countFailure(db, keys.pair, now, { memoryMs: PAIR_MEMORY_MS });
  await countFailure(db, keys.network, now, { fixedMs: NETWORK_WINDOW_MS });
  await countFailure(db, keys.account, now, { fixedMs: ACCOUNT_WINDOW_MS });
}

/** Counters that no longer count go, so the table stays as small as the recent failures. */
async function dropExpiredCounters(db: Handle, now: Date): Promise<void> {
  await db.delete(signInThrottle).where(lt(signInThrottle.expiresAt, now));
}

export async function recordSignInFailure(email: string, ip: string | null, now = new Date()): Promise<void> {
  const keys = await keysOf(email, ip);
  const db = await getDb();
  await countFailures(db, keys, now);
  await dropExpiredCounters(db, now);
}

async function recordSuccess(db: Handle, keys: Keys, now: Date): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, keys.pair));
  const expiresAt = new Date(now.getTime() + KNOWN_NETWORK_MS);
  await db
    .insert(signInThrottle)
    .values({ key: keys.known, count: 1, windowStartedAt: now, lastAt: now, expiresAt })
    .onConflictDoUpdate({ target: signInThrottle.key, set: { count: sql`${signInThrottle.count} + 1`, lastAt: now, expiresAt } });
}

/**
 * A successful sign-in ends the pair's run of failures and makes the network known to the
 * account. The network's and the account's counts stay: one success must not reset an attack.
 */
export async function recordSignInSuccess(email: string, ip: string | null, now = new Date()): Promise<void> {
  await recordSuccess(await getDb(), await keysOf(email, ip), now);
}

/** Takes back failures counted in advance for an attempt that turned out not to be one. */
async function refund(db: Handle, keys: string[]): Promise<void> {
  await db
    .update(signInThrottle)
    .set({ count: sql`greatest(${signInThrottle.count} - 1, 0)` })
    .where(inArray(signInThrottle.key, keys));
}

/**
 * The check and the counting of an attempt, as one step for the whole deployment: the attempt
 * is counted as a failure before its password is looked at, under transaction locks on its
 * account and its network, so that simultaneous attempts on any number of instances each see
 * the ones before them. Without the locks a burst spread over instances would all pass the
 * check before any failure is written, and get that many guesses. The locks are held for two
 * short statements, never during the password check: a slow hash must not hold a connection
 * that the check itself may need from the same pool.
 */
async function reserveAttempt(db: Db, keys: Keys, now: Date): Promise<ThrottleVerdict> {
  return db.transaction(async (tx) => {
    // In ascending lock order, so two attempts that share one of the keys never wait for each
    // other crosswise.
    await tx.execute(sql`
      select pg_advisory_xact_lock(${KEYED_LOCK_NAMESPACE.signInThrottle}, lock_key)
      from (select hashtext(key) as lock_key from unnest(array[${keys.account}, ${keys.network}]::text[]) as key order by 1) as ordered
    `);
    const verdict = await judge(tx, keys, now);
    if (verdict.allowed) await countFailures(tx, keys, now);
    return verdict;
  });
}

/**
 * One sign-in attempt: refused without calling `signIn` (the password check) when throttled;
 * otherwise `signIn` runs and its outcome is counted. `signIn` answers null for a failure.
 * `db` is for tests that play a second instance; the server uses its own database.
 */
export async function attemptSignIn<T>(
  email: string,
  ip: string | null,
  signIn: () => Promise<T | null>,
  { db }: { db?: Db } = {},
): Promise<
  { outcome: 'signed-in'; value: T } | { outcome: 'failed' } | { outcome: 'throttled'; scope: ThrottleScope; retryAfterSeconds: number }
> {
  const keys = await keysOf(email, ip);
  const handle = db ?? (await getDb());
  const now = new Date();
  const verdict = await reserveAttempt(handle, keys, now);
  if (!verdict.allowed) return { outcome: 'throttled', scope: verdict.scope, retryAfterSeconds: verdict.retryAfterSeconds };

  let value: T | null;
  try {
    value = await signIn();
  } catch (error) {
    // No password was judged (the check itself failed): not a failure of the person's.
    await refund(handle, [keys.pair, keys.network, keys.account]).catch(() => undefined);
    throw error;
  }
  if (value === null) {
    await dropExpiredCounters(handle, now);
    return { outcome: 'failed' };
  }
  // A success is no failure: the network's and the account's counts go back to what they were.
  await refund(handle, [keys.network, keys.account]);
  await recordSuccess(handle, keys, now);
  return { outcome: 'signed-in', value };
}
