// The live feed on a real database (in-memory PGlite, or PostgreSQL in the `postgres` project):
// publishing into the log, the process's fan-out in id order, replay for a reconnecting browser,
// and the log's retention.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { runDashboardRetention } from '@/lib/jobs/retention-jobs';
import { closeDatabases } from '@/lib/platform/database';
import { until } from '@/test/support/live';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { currentEventId, eventsSince, getLiveBus, type LiveEvent, publishVerificationChange, subscribe } from './bus';
import { appendLiveEvent, REPLAY_LIMIT } from './event-log';
import { LIVE_EVENTS_KEPT_MS, purgeOldLiveEvents } from './retention';

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  // Opening the database and starting the feed can take seconds on a busy machine: done here,
  // the tests' own waits are for what they test.
  await getDb();
  (await getLiveBus().subscribe(() => undefined))();
}, 120_000);

afterEach(() => {
  vi.restoreAllMocks();
  stopCapturingLogs();
});

afterAll(async () => {
  await closeDatabases();
});

/** Subscribes and collects what the feed hands out. */
async function collect() {
  const heard: LiveEvent[] = [];
  const stop = await subscribe((event) => heard.push(event));
  return { heard, stop };
}

describe('publishing and the fan-out', () => {
  it('gives every event a strictly increasing id and hands it to every subscriber, in order', async () => {
    const one = await collect();
    const two = await collect();
    const a = await publishVerificationChange({ verificationId: 'v-1', status: 'pending' });
    const b = await publishVerificationChange({ verificationId: 'v-2', status: 'completed' });
    const c = await publishVerificationChange({ verificationId: 'v-1', status: 'failed' });
    expect(b.id).toBeGreaterThan(a.id);
    expect(c.id).toBeGreaterThan(b.id);
    await until(() => one.heard.length >= 3 && two.heard.length >= 3, 'three events');
    expect(one.heard).toEqual([a, b, c]);
    expect(two.heard.map((e) => `${e.verificationId}:${e.status}`)).toEqual(['v-1:pending', 'v-2:completed', 'v-1:failed']);
    expect(await currentEventId()).toBe(c.id);
    one.stop();
    two.stop();
  });

  it('keeps only the listed fields (no name can ride along)', async () => {
    const { heard, stop } = await collect();
    const event = await publishVerificationChange({ verificationId: 'v-1', status: 'completed', name: 'Alice' } as never);
    expect(Object.keys(event).sort()).toEqual(['id', 'status', 'verificationId']);
    await until(() => heard.length === 1, 'the event');
    expect(heard[0]).toEqual({ id: event.id, verificationId: 'v-1', status: 'completed' });
    stop();
  });

  it('stops calling a listener once unsubscribed', async () => {
    const { heard, stop } = await collect();
    const other = await collect();
    const first = await publishVerificationChange({ verificationId: 'v', status: 'pending' });
    await until(() => heard.length === 1, 'the first event');
    stop();
    const second = await publishVerificationChange({ verificationId: 'v', status: 'completed' });
    await until(() => other.heard.some((e) => e.id === second.id), 'the second event elsewhere');
    expect(heard.map((e) => e.id)).toEqual([first.id]);
    other.stop();
  });

  it('keeps delivering to the others when one listener throws', async () => {
    captureLogs();
    const stopBroken = await subscribe(() => {
      throw new Error('broken stream');
    });
    const { heard, stop } = await collect();
    const event = await publishVerificationChange({ verificationId: 'v', status: 'pending' });
    await until(() => heard.length === 1, 'the event');
    expect(heard[0]!.id).toBe(event.id);
    stopBroken();
    stop();
  });

  it('delivers concurrent publishers once each, in increasing id order', async () => {
    const { heard, stop } = await collect();
    const published = await Promise.all(
      Array.from({ length: 60 }, (_, i) => publishVerificationChange({ verificationId: `v-c-${i}`, status: 'pending' })),
    );
    await until(() => heard.length === published.length, 'every concurrent event');
    const ids = heard.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids)).toEqual(new Set(published.map((e) => e.id)));
    stop();
  });

  it('publishes nothing for a change whose transaction rolls back', async () => {
    const { heard, stop } = await collect();
    const before = await currentEventId();
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await publishVerificationChange({ verificationId: 'v-rolled-back', status: 'completed' }, tx);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const after = await publishVerificationChange({ verificationId: 'v-after', status: 'pending' });
    await until(() => heard.length === 1, 'the event after');
    expect(heard.map((e) => e.verificationId)).toEqual(['v-after']);
    expect((await eventsSince(before)).events.map((e) => e.verificationId)).toEqual(['v-after']);
    expect(after.id).toBeGreaterThan(before);
    stop();
  });
});

describe('eventsSince (a reconnecting browser)', () => {
  it('replays the events after the given id, oldest first', async () => {
    const start = await currentEventId();
    const events = [];
    for (const status of ['a', 'b', 'c', 'd']) events.push(await publishVerificationChange({ verificationId: 'v', status }));
    expect(await eventsSince(events[1]!.id)).toEqual({ events: events.slice(2), missed: false, newestId: events[3]!.id });
    expect(await eventsSince(events[3]!.id)).toEqual({ events: [], missed: false, newestId: events[3]!.id });
    expect((await eventsSince(start)).events).toEqual(events);
  });

  it('treats an id the log never gave out (another database, a made-up value) as missed', async () => {
    const newest = await currentEventId();
    expect(await eventsSince(newest + 1_000)).toEqual({ events: [], missed: true, newestId: newest });
    expect((await eventsSince(Number.NaN)).missed).toBe(true);
    expect((await eventsSince(-1)).missed).toBe(true);
  });

  it(`tells a browser that missed more than ${REPLAY_LIMIT} events to resync instead of replaying them`, async () => {
    const start = await currentEventId();
    const db = await getDb();
    await db.transaction(async (tx) => {
      for (let i = 0; i <= REPLAY_LIMIT; i += 1) await appendLiveEvent(tx, { verificationId: `v-many-${i}`, status: 'pending' });
    });
    const replay = await eventsSince(start);
    expect(replay).toEqual({ events: [], missed: true, newestId: await currentEventId() });
    // One fewer is still replayed.
    expect((await eventsSince(start + 1)).events).toHaveLength(REPLAY_LIMIT);
  });
});

describe('retention of the log', () => {
  it('purges events past the replay window in the hourly retention run, keeps the newest, and an id before what is left is told to resync', async () => {
    const db = await getDb();
    const old = await publishVerificationChange({ verificationId: 'v-old', status: 'pending' });
    const older = new Date(Date.now() - LIVE_EVENTS_KEPT_MS - 60_000);
    await db.execute(sql`update live_events set at = ${older.toISOString()} where id <= ${old.id}`);
    const recent = await publishVerificationChange({ verificationId: 'v-recent', status: 'pending' });

    // The dashboard's hourly retention run is what purges the log.
    expect((await runDashboardRetention()).liveEvents).toBeGreaterThan(0);
    const replay = await eventsSince(old.id);
    // Just before the oldest kept event: nothing lost.
    expect(replay).toEqual({ events: [recent], missed: false, newestId: recent.id });
    expect((await eventsSince(old.id - 1)).missed).toBe(true);

    // When every event is old, the newest stays, so the log still knows where it stands.
    await db.execute(sql`update live_events set at = ${older.toISOString()}`);
    await purgeOldLiveEvents();
    expect(await eventsSince(recent.id)).toEqual({ events: [], missed: false, newestId: recent.id });
    expect((await eventsSince(old.id - 1)).missed).toBe(true);
  });
});

describe('the process-wide feed', () => {
  it('lives on globalThis, so separately bundled modules share it', () => {
    const key = Symbol.for('verification-desk.live-feed');
    expect((globalThis as unknown as Record<symbol, unknown>)[key]).toBe(getLiveBus());
  });
});
