// One second-factor check at a time per account, across every instance. better-auth reads the
// account's lock before it judges a code and counts the failure after: checks running side by
// side (one per pending sign-in, each started with the password) would all read "not locked"
// before any of them counted, and together judge more codes than the lock allows. Taken one at
// a time, each check sees the failures of the ones before it, so no more than the limit of wrong
// codes in a row is ever judged. A check that finds another one running is refused unjudged.
//
// The lease is a row of the sign-in throttle's table (one statement takes it, so two instances
// can never both hold it), keyed like the throttle's counters by a keyed hash. It lapses on its
// own if its holder dies mid-check, so an account is never left unable to sign in.
import 'server-only';
import { createHmac, randomInt } from 'node:crypto';
import { and, eq, lte } from 'drizzle-orm';
import { type Db, getDb } from '@/lib/db';
import { signInThrottle } from '@/lib/db/schema';
import { getAuthSecret } from '../auth';

/** Far longer than a check takes; only a holder that died mid-check lets it run out. */
export const CHECK_LEASE_MS = 30_000;

/**
 * Takes the account's lease, or answers null while another check holds it. The function
 * returned gives it back (and only this holder's: a lease that lapsed and was taken since stays).
 */
export async function beginSecondFactorCheck(
  userId: string,
  { db, now = new Date() }: { db?: Db; now?: Date } = {},
): Promise<(() => Promise<void>) | null> {
  const handle = db ?? (await getDb());
  const hash = createHmac('sha256', await getAuthSecret())
    .update(`second-factor-check:${userId}`)
    .digest('hex');
  const key = `second-factor-check:${hash}`;
  const holder = randomInt(1, 2 ** 31 - 1);
  const expiresAt = new Date(now.getTime() + CHECK_LEASE_MS);
  const held = { count: holder, windowStartedAt: now, lastAt: now, expiresAt };
  const taken = await handle
    .insert(signInThrottle)
    .values({ key, ...held })
    .onConflictDoUpdate({ target: signInThrottle.key, set: held, setWhere: lte(signInThrottle.expiresAt, now) })
    .returning({ key: signInThrottle.key });
  if (taken.length === 0) return null;
  return async () => {
    await handle.delete(signInThrottle).where(and(eq(signInThrottle.key, key), eq(signInThrottle.count, holder)));
  };
}
