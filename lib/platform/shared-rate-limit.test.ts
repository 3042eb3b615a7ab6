// The rate limit kept in the database, on both stores: on PostgreSQL also from two instances
// (two independent pools) at once, which is what it is for.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, getDb, schema } from '@/lib/db';
import { rateLimitEvents } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases, rowsOf } from '@/lib/platform/database';
import { type OtherInstanceDb, openOtherInstanceDb } from '@/test/support/second-instance';
import { createSharedRateLimiter, purgeRateLimitEvents } from './shared-rate-limit';

const T0 = Date.UTC(2030, 0, 1);

let db: Db;
let other: OtherInstanceDb<typeof schema>;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) process.env.DATA_DIR = 'memory://';
  resetEnv();
  db = await getDb();
  other = openOtherInstanceDb(schema, db);
});

afterAll(async () => {
  await other.close();
  await closeDatabases();
});

function limiterOn(handle: Db, limit: number, name = 'test') {
  return createSharedRateLimiter({
    name,
    limit,
    windowMs: 60_000,
    db: async () => handle,
    table: rateLimitEvents,
    takeFunction: 'rate_limit_take',
  });
}

async function storedEvents(key: string): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from rate_limit_events where key = ${key}`));
  return row!.n;
}

describe('createSharedRateLimiter', () => {
  it('allows exactly 30 of 100 simultaneous attempts made through two instances, on the database clock', async () => {
    const key = randomUUID();
    const here = limiterOn(db, 30);
    const there = limiterOn(other.db, 30);
    const decisions = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? here : there).take(key)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(30);
    for (const decision of decisions.filter((decision) => !decision.allowed)) {
      expect(decision).toMatchObject({ allowed: false, limit: 30 });
      // Within the minute that the first allowed attempt opened (how far in depends on how long the burst took).
      if (!decision.allowed) expect(decision.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      if (!decision.allowed) expect(decision.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Refused attempts leave no row: a client that keeps retrying does not push its own retry further away.
    expect(await storedEvents(`test:${key}`)).toBe(30);
  });

  it('slides: a slot frees exactly when the oldest event leaves the window, and retry-after says when', async () => {
    const limiter = limiterOn(db, 2);
    const key = randomUUID();
    expect(await limiter.take(key, { now: T0 })).toEqual({ allowed: true });
    expect(await limiter.take(key, { now: T0 + 30_000 })).toEqual({ allowed: true });
    // 500 ms to go: rounded up to a whole second, never 0.
    expect(await limiter.take(key, { now: T0 + 59_500 })).toEqual({ allowed: false, limit: 2, retryAfterSeconds: 1 });
    expect((await limiter.take(key, { now: T0 + 59_999 })).allowed).toBe(false);
    expect(await limiter.take(key, { now: T0 + 60_000 })).toEqual({ allowed: true });
    // Now the event at T0 + 30 s is the oldest of two: the next slot frees at T0 + 90 s.
    expect(await limiter.take(key, { now: T0 + 61_000 })).toEqual({ allowed: false, limit: 2, retryAfterSeconds: 29 });
    // The row that left the window went with the decision that saw it leave.
    expect(await storedEvents(`test:${key}`)).toBe(2);
  });

  it('counts a repeat of an event id inside the window once, from either instance', async () => {
    const key = randomUUID();
    const here = limiterOn(db, 2);
    const there = limiterOn(other.db, 2);
    expect(await here.take(key, { now: T0, eventId: 'form-1' })).toEqual({ allowed: true });
    expect(await there.take(key, { now: T0 + 100, eventId: 'form-1' })).toEqual({ allowed: true });
    expect(await here.take(key, { now: T0 + 200, eventId: 'form-2' })).toEqual({ allowed: true });
    // Full: a new event is refused, a repeat of one inside the window is still free.
    expect((await there.take(key, { now: T0 + 300, eventId: 'form-3' })).allowed).toBe(false);
    expect(await there.take(key, { now: T0 + 400, eventId: 'form-2' })).toEqual({ allowed: true });
    expect(await storedEvents(`test:${key}`)).toBe(2);
    // Once form-1 has left the window, its id is a new event again (and takes the freed slot).
    expect(await here.take(key, { now: T0 + 60_000, eventId: 'form-1' })).toEqual({ allowed: true });
    expect((await here.take(key, { now: T0 + 60_001, eventId: 'form-4' })).allowed).toBe(false);
  });

  it('keeps keys and limiters apart', async () => {
    const key = randomUUID();
    const creates = limiterOn(db, 1, 'creates');
    const copies = limiterOn(db, 1, 'copies');
    expect((await creates.take(key, { now: T0 })).allowed).toBe(true);
    expect((await creates.take(key, { now: T0 + 1 })).allowed).toBe(false);
    expect((await creates.take(randomUUID(), { now: T0 + 1 })).allowed).toBe(true);
    expect((await copies.take(key, { now: T0 + 1 })).allowed).toBe(true);
  });

  it('reads a configured limit when it decides, not when it is created', async () => {
    let limit = 1;
    const limiter = createSharedRateLimiter({
      name: 'configured',
      limit: () => limit,
      windowMs: 60_000,
      db: async () => db,
      table: rateLimitEvents,
      takeFunction: 'rate_limit_take',
    });
    const key = randomUUID();
    expect((await limiter.take(key, { now: T0 })).allowed).toBe(true);
    expect(await limiter.take(key, { now: T0 + 1 })).toMatchObject({ allowed: false, limit: 1 });
    limit = 2;
    expect((await limiter.take(key, { now: T0 + 2 })).allowed).toBe(true);
  });
});

describe('purgeRateLimitEvents', () => {
  it('removes events older than what is kept, whatever their key, and keeps the rest', async () => {
    const stale = randomUUID();
    const recent = randomUUID();
    const limiter = limiterOn(db, 5, 'purge');
    await limiter.take(stale, { now: Date.now() - 2 * 60 * 60_000 });
    await limiter.take(recent, { now: Date.now() - 30_000 });
    expect(await purgeRateLimitEvents(db, rateLimitEvents, 60 * 60_000)).toBeGreaterThanOrEqual(1);
    expect(await storedEvents(`purge:${stale}`)).toBe(0);
    expect(await storedEvents(`purge:${recent}`)).toBe(1);
  });
});
