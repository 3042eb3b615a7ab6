// Throttling of failed sign-ins, per account (the e-mail typed, whether or not it exists, so
// the answer tells nothing about which accounts exist) and per client address. Keys are
// keyed hashes (HMAC with the auth secret): the table holds no e-mail address or IP, and the
// hashes cannot be reversed by hashing every address.
import 'server-only';
import { createHmac } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { signInFailures } from '@/lib/db/schema';
import { getAuthSecret } from './auth';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

async function keyed(kind: 'account' | 'ip', value: string): Promise<string> {
  return `${kind}:${createHmac('sha256', await getAuthSecret())
    .update(`${kind}:${value}`)
    .digest('hex')}`;
}
const accountKey = (email: string) => keyed('account', email.trim().toLowerCase());
const addressKey = (ip: string) => keyed('ip', ip);

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export async function checkSignInThrottle(email: string, ip: string | null, now = new Date()): Promise<ThrottleVerdict> {
  const db = await getDb();
  const limits = new Map<string, number>([[await accountKey(email), MAX_FAILURES_PER_ACCOUNT]]);
  if (ip) limits.set(await addressKey(ip), MAX_FAILURES_PER_ADDRESS);
  const rows = await db
    .select()
    .from(signInFailures)
    .where(inArray(signInFailures.key, [...limits.keys()]));
  let retryAfterMs = 0;
  for (const row of rows) {
    const windowEnds = row.windowStartedAt.getTime() + THROTTLE_WINDOW_MS;
    if (windowEnds > now.getTime() && row.failures >= (limits.get(row.key) ?? Infinity)) {
      retryAfterMs = Math.max(retryAfterMs, windowEnds - now.getTime());
    }
  }
  return retryAfterMs > 0 ? { allowed: false, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) } : { allowed: true };
}

export async function recordSignInFailure(email: string, ip: string | null, now = new Date()): Promise<void> {
  const db = await getDb();
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  for (const key of [await accountKey(email), ...(ip ? [await addressKey(ip)] : [])]) {
    // A window that has run out starts again at 1.
    await db
      .insert(signInFailures)
      .values({ key, failures: 1, windowStartedAt: now })
      .onConflictDoUpdate({
        target: signInFailures.key,
        set: {
          failures: sql`case when ${signInFailures.windowStartedAt} < ${windowStart.toISOString()} then 1 else ${signInFailures.failures} + 1 end`,
          windowStartedAt: sql`case when ${signInFailures.windowStartedAt} < ${windowStart.toISOString()} then ${now.toISOString()}::timestamptz else ${signInFailures.windowStartedAt} end`,
        },
      });
  }
}

/** A successful sign-in clears the account's count (not the address's: one success must not reset an attack). */
export async function clearAccountFailures(email: string): Promise<void> {
  const db = await getDb();
  await db.delete(signInFailures).where(eq(signInFailures.key, await accountKey(email)));
}

const accountQueues = new Map<string, Promise<unknown>>();

/**
 * Runs check → password → record for one account strictly one after another. Without this,
 * a burst of simultaneous attempts would all pass the check before any failure is recorded and
 * get that many guesses. (One server process owns the embedded database, so an in-process
 * queue serialises every attempt there is.)
 */
export async function attemptSignIn<T>(
  email: string,
  ip: string | null,
  signIn: () => Promise<T | null>,
): Promise<{ outcome: 'signed-in'; value: T } | { outcome: 'failed' } | { outcome: 'throttled'; retryAfterSeconds: number }> {
  const key = email.trim().toLowerCase();
  const previous = accountQueues.get(key) ?? Promise.resolve();
  const run = previous.then(async () => {
    const verdict = await checkSignInThrottle(email, ip);
    if (!verdict.allowed) return { outcome: 'throttled' as const, retryAfterSeconds: verdict.retryAfterSeconds };
    const value = await signIn();
    if (value === null) {
      await recordSignInFailure(email, ip);
      return { outcome: 'failed' as const };
    }
    await clearAccountFailures(email);
    return { outcome: 'signed-in' as const, value };
  });
  const settled = run.catch(() => undefined);
  accountQueues.set(key, settled);
  void settled.then(() => {
    if (accountQueues.get(key) === settled) accountQueues.delete(key);
  });
  return run;
}
