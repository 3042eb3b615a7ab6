// Throttling of failed sign-ins, per account (the e-mail typed, whether or not it exists, so
// the answer tells nothing about which accounts exist) and per client address. Keys are
// hashed: the table holds no e-mail address or IP.
import 'server-only';
import { createHash } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { signInFailures } from '@/lib/db/schema';

export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

const accountKey = (email: string) => `account:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
const addressKey = (ip: string) => `ip:${createHash('sha256').update(ip).digest('hex')}`;

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export async function checkSignInThrottle(email: string, ip: string | null, now = new Date()): Promise<ThrottleVerdict> {
  const db = await getDb();
  const limits = new Map<string, number>([[accountKey(email), MAX_FAILURES_PER_ACCOUNT]]);
  if (ip) limits.set(addressKey(ip), MAX_FAILURES_PER_ADDRESS);
  const rows = await db.select().from(signInFailures).where(inArray(signInFailures.key, [...limits.keys()]));
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
  for (const key of [accountKey(email), ...(ip ? [addressKey(ip)] : [])]) {
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
  await db.delete(signInFailures).where(eq(signInFailures.key, accountKey(email)));
}
