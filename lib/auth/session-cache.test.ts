// The cache of validated sessions on its own, on a real database (its invalidations travel as
// database notices): TTL, the session's own expiry, no negative entries, an invalidation that a
// validation running at the same time cannot undo, and — on a PostgreSQL server, where a second
// pool plays a second instance — invalidations that reach the other instance, and a cache that
// keeps nothing while it cannot hear them.
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Db, getDb } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { closeDatabases, rowsOf } from '@/lib/platform/database';
import { forgetValidatedSessions, onSessionsChanged, rememberValidatedSession, SESSION_CACHE_TTL_MS } from './session-cache';

const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000);
/** Long enough that only an invalidation, never the TTL, can end an entry during a test. */
const AN_HOUR = 60 * 60 * 1000;

let db: Db;

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  db = await getDb();
});

afterAll(async () => {
  await closeDatabases();
});

/** A validation that counts its calls: the value is the call's number. */
function counting() {
  let calls = 0;
  const validate = async () => ({ value: ++calls, expiresAt: inAnHour() });
  return { validate, calls: () => calls };
}

describe('rememberValidatedSession', () => {
  it('validates once within the TTL, and again after it', async () => {
    const { validate } = counting();
    const now = Date.now();
    expect(await rememberValidatedSession(db, 'ttl-a', validate, { now })).toBe(1);
    expect(await rememberValidatedSession(db, 'ttl-a', validate, { now: now + SESSION_CACHE_TTL_MS - 1 })).toBe(1);
    expect(await rememberValidatedSession(db, 'ttl-a', validate, { now: now + SESSION_CACHE_TTL_MS })).toBe(2);
    expect(await rememberValidatedSession(db, 'ttl-b', validate, { now })).toBe(3);
  });

  it('never keeps a session past its own expiry', async () => {
    let calls = 0;
    const now = Date.now();
    const validate = async () => ({ value: ++calls, expiresAt: new Date(now + 100) });
    await rememberValidatedSession(db, 'expiry', validate, { now });
    expect(await rememberValidatedSession(db, 'expiry', validate, { now: now + 99 })).toBe(1);
    expect(await rememberValidatedSession(db, 'expiry', validate, { now: now + 100 })).toBe(2);
  });

  it('does not remember "no session"', async () => {
    let calls = 0;
    const validate = async () => {
      calls += 1;
      return undefined;
    };
    expect(await rememberValidatedSession(db, 'none', validate)).toBeUndefined();
    expect(await rememberValidatedSession(db, 'none', validate)).toBeUndefined();
    expect(calls).toBe(2);
  });

  it('forgets everything at once', async () => {
    const { validate } = counting();
    await rememberValidatedSession(db, 'forget', validate);
    expect(await rememberValidatedSession(db, 'forget', validate)).toBe(1);
    await forgetValidatedSessions(db);
    expect(await rememberValidatedSession(db, 'forget', validate)).toBe(2);
  });

  it('does not store a validation that was running when the sessions were forgotten', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = rememberValidatedSession(db, 'race', async () => {
      calls += 1;
      started();
      await gate; // it read the session before the sign-out below…
      return { value: 'stale', expiresAt: inAnHour() };
    });
    await running;
    await forgetValidatedSessions(db); // …which happens while it is still running
    release();
    expect(await slow).toBe('stale');
    expect(await rememberValidatedSession(db, 'race', async () => ({ value: `fresh ${++calls}`, expiresAt: inAnHour() }))).toBe('fresh 2');
  });
});

describe('onSessionsChanged', () => {
  it('tells its watchers after sessions are forgotten, until they unsubscribe', async () => {
    await rememberValidatedSession(db, 'warm-up', counting().validate); // resolves once the cache listens
    let told = 0;
    const stop = onSessionsChanged(db, () => {
      told += 1;
    });
    await forgetValidatedSessions(db);
    await vi.waitFor(() => expect(told).toBeGreaterThanOrEqual(1));
    stop();
    const atStop = told;
    await forgetValidatedSessions(db);
    // A watcher still subscribed hears the next notice; once it has, the one before it was
    // delivered too (one connection, in order)…
    let control = 0;
    const stopControl = onSessionsChanged(db, () => {
      control += 1;
    });
    await forgetValidatedSessions(db);
    await vi.waitFor(() => expect(control).toBeGreaterThanOrEqual(1));
    stopControl();
    // …and the unsubscribed watcher heard neither.
    expect(told).toBe(atStop);
  });
});

// Two instances need a server: an embedded data directory belongs to one process.
describe.skipIf(!process.env.DATABASE_URL)('several instances on one PostgreSQL server', () => {
  let otherPool: pg.Pool;
  /** The other instance: its own pool, hence its own listening connection and its own cache. */
  let other: Db;

  beforeAll(() => {
    otherPool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    other = drizzle({ client: otherPool, schema: {} }) as unknown as Db;
  });

  afterAll(async () => {
    await closeDatabases(); // ends the listening connections, the other instance's included
    await otherPool.end();
  });

  it('a session remembered on another instance is forgotten there when this one forgets sessions', async () => {
    const { validate, calls } = counting();
    expect(await rememberValidatedSession(other, 'elsewhere', validate, { ttlMs: AN_HOUR })).toBe(1);
    expect(await rememberValidatedSession(other, 'elsewhere', validate, { ttlMs: AN_HOUR })).toBe(1);
    // Forgetting here empties this process's cache of `db` only: the other instance learns it
    // from the database's notice, a moment later.
    await forgetValidatedSessions(db);
    await vi.waitFor(async () =>
      expect(await rememberValidatedSession(other, 'elsewhere', validate, { ttlMs: AN_HOUR })).toBeGreaterThan(1),
    );
    const after = calls();
    expect(await rememberValidatedSession(other, 'elsewhere', validate, { ttlMs: AN_HOUR })).toBe(after); // and keeps the fresh one
  });

  it("tells the other instance's watchers (its open live streams)", async () => {
    await rememberValidatedSession(other, 'warm-up', counting().validate); // resolves once it listens
    let told = 0;
    const stop = onSessionsChanged(other, () => {
      told += 1;
    });
    try {
      await forgetValidatedSessions(db);
      await vi.waitFor(() => expect(told).toBeGreaterThanOrEqual(1));
    } finally {
      stop();
    }
  });

  it('forgets what it held once it listens again after losing its connection, and tells its watchers', async () => {
    const { validate } = counting();
    expect(await rememberValidatedSession(other, 'a', validate, { ttlMs: AN_HOUR })).toBe(1);
    expect(await rememberValidatedSession(other, 'a', validate, { ttlMs: AN_HOUR })).toBe(1);
    let told = 0;
    const stop = onSessionsChanged(other, () => {
      told += 1;
    });
    try {
      // Notices sent while the connection is down are lost for good: what it held may be stale
      // by the time it listens again.
      const listeners = async () =>
        rowsOf<{ pid: number }>(
          await db.execute(
            sql`select pid from pg_stat_activity where datname = current_database() and application_name = 'verification-desk-listener'`,
          ),
        ).map((row) => row.pid);
      const before = await listeners();
      expect(before).toHaveLength(2); // this instance's and the other's
      await db.execute(sql`select pg_terminate_backend(pid) from unnest(${`{${before.join(',')}}`}::int[]) as pid`);
      await vi.waitFor(
        async () => {
          const now = await listeners();
          expect(now).toHaveLength(2);
          expect(now.filter((pid) => before.includes(pid))).toEqual([]);
          expect(told).toBeGreaterThan(0);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(await rememberValidatedSession(other, 'a', validate, { ttlMs: AN_HOUR })).toBeGreaterThan(1);
      // Listening again, it keeps sessions again.
      const fresh = await rememberValidatedSession(other, 'b', validate, { ttlMs: AN_HOUR });
      expect(await rememberValidatedSession(other, 'b', validate, { ttlMs: AN_HOUR })).toBe(fresh);
    } finally {
      stop();
    }
  });
});
