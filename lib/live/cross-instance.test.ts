// Two instances on one PostgreSQL server (the `postgres` project): instance A is this process's
// own database handle and live feed, as the app uses them; instance B is a second, independent
// pool with its own feed and its own listening connection, sharing nothing in memory with A.
// What must hold: an event B publishes reaches A's subscribers and A's open SSE streams; events
// published while A's listening connection is gone (terminated by the server) still reach A once
// it is back, in order and once each. Also measured: how long an event takes from B to A.
// On the embedded store there is only ever one instance, so the file has nothing to show there.
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { closeDatabases, rowsOf } from '@/lib/platform/database';
import { frameReader, until } from '@/test/support/live';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { createLiveBus, getLiveBus, type LiveBus, type LiveEvent } from './bus';
import { appendLiveEvent } from './event-log';
import { createEventStream } from './sse';

const onServer = Boolean(process.env.DATABASE_URL);

let poolB: pg.Pool;
let dbB: ReturnType<typeof drizzle>;
let busB: LiveBus;

/** Publishes on instance B, as its webhook receiver does (in its own transaction). */
function publishOnB(verificationId: string, status = 'completed'): Promise<LiveEvent> {
  return dbB.transaction((tx) => appendLiveEvent(tx, { verificationId, status }));
}

/** The backends listening for this database's signals (one per instance with a listener). */
async function listenerBackends(): Promise<{ pid: number; started: Date }[]> {
  const rows = rowsOf<{ pid: number; backend_start: Date }>(
    await dbB.execute(sql`
      select pid, backend_start from pg_stat_activity
      where application_name = 'verification-desk-listener' and datname = current_database()
      order by backend_start`),
  );
  return rows.map((row) => ({ pid: row.pid, started: new Date(row.backend_start) }));
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe.skipIf(!onServer)('live events across two instances on one PostgreSQL server', () => {
  let heardOnA: LiveEvent[] = [];
  let stopA: () => void = () => {};
  let listenerA: number;
  let listenerB: number | undefined;

  beforeAll(async () => {
    resetEnv();
    await getDb();
    stopA = await getLiveBus().subscribe((event) => heardOnA.push(event));
    // A listens first and alone: its listening backend is the only one so far.
    const backends = await (async () => {
      poolB = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4, application_name: 'instance-b' });
      dbB = drizzle({ client: poolB });
      return listenerBackends();
    })();
    expect(backends).toHaveLength(1);
    listenerA = backends[0]!.pid;
    busB = createLiveBus(async () => dbB);
  });

  afterAll(async () => {
    stopCapturingLogs();
    stopA();
    await busB?.stop();
    await poolB?.end();
    await closeDatabases();
  });

  it('delivers an event published on B to a subscriber and an open SSE stream on A, and one from A to B', async () => {
    const abort = new AbortController();
    const frames = frameReader(createEventStream({ signal: abort.signal }));
    await frames.next(); // retry: the stream is subscribed on A
    heardOnA = [];

    const fromB = await publishOnB('v-from-b');
    await until(() => heardOnA.length === 1, 'A to hear B');
    expect(heardOnA).toEqual([fromB]);
    const frame = await frames.next(5_000);
    expect(frame.id).toBe(String(fromB.id));
    expect(JSON.parse(frame.data!)).toEqual({ verificationId: 'v-from-b', status: 'completed' });

    const heardOnB: LiveEvent[] = [];
    const stopB = await busB.subscribe((event) => heardOnB.push(event));
    // B listens too now, on a backend of its own.
    listenerB = (await listenerBackends()).find((b) => b.pid !== listenerA)?.pid;
    expect(listenerB).toBeDefined();
    const db = await getDb();
    const fromA = await db.transaction((tx) => appendLiveEvent(tx, { verificationId: 'v-from-a', status: 'failed' }));
    await until(() => heardOnB.length === 1, 'B to hear A');
    expect(heardOnB).toEqual([fromA]);
    stopB();
    abort.abort();
  });

  it('replays Last-Event-ID on A from events B published', async () => {
    const before = await getLiveBus().lastEventId();
    const missed = [await publishOnB('v-replay-1'), await publishOnB('v-replay-2')];
    const abort = new AbortController();
    const frames = frameReader(createEventStream({ signal: abort.signal, lastEventId: before }));
    await frames.next();
    expect([(await frames.next()).id, (await frames.next()).id]).toEqual(missed.map((e) => String(e.id)));
    abort.abort();
  });

  it('still delivers, in order and once each, the events published while A was not listening', async () => {
    captureLogs(); // the lost connection is logged as a warning
    // A reconnect that happens to start before B's events commit would hear them the ordinary
    // way; only a gap proven by the new backend's start time shows the catch-up. Try until one is.
    let proven = false;
    let attempts = 0;
    for (let attempt = 0; attempt < 5 && !proven; attempt += 1) {
      attempts = attempt + 1;
      const before = await publishOnB(`v-before-${attempt}`);
      await until(() => heardOnA.some((e) => e.id === before.id), 'A to hear the event before the gap');
      heardOnA = [];

      await dbB.execute(sql`select pg_terminate_backend(${listenerA})`);
      const inGap = [await publishOnB(`v-gap-${attempt}-1`, 'completed'), await publishOnB(`v-gap-${attempt}-2`, 'failed')];
      const [{ committed }] = rowsOf<{ committed: Date }>(await dbB.execute(sql`select clock_timestamp() as committed`)) as [
        { committed: Date },
      ];

      await until(() => heardOnA.length >= 2, 'A to catch up after reconnecting', 15_000);
      const after = await publishOnB(`v-after-${attempt}`);
      await until(() => heardOnA.some((e) => e.id === after.id), 'A to hear the event after the gap');
      // In order, nothing twice, nothing missing.
      expect(heardOnA).toEqual([...inGap, after]);

      const backends = await listenerBackends();
      const listener = backends.find((b) => b.pid !== listenerA && b.pid !== listenerB);
      expect(listener).toBeDefined();
      proven = listener!.started.getTime() > new Date(committed).getTime();
      listenerA = listener!.pid;
    }
    expect(proven).toBe(true);
    console.log(`a gap proven by the listener's restart on attempt ${attempts}`);
  });

  it('measures how long an event takes from B to A (200 events)', async () => {
    const heardAt = new Map<string, number>();
    const stop = await getLiveBus().subscribe((event) => heardAt.set(event.verificationId, performance.now()));
    const latencies: number[] = [];
    const afterCommit: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const id = `v-latency-${i}`;
      // From the moment B starts to publish (a webhook being applied) to A's stream hearing it.
      const startedAt = performance.now();
      await publishOnB(id);
      const committedAt = performance.now();
      await until(() => heardAt.has(id), `event ${i} on A`);
      latencies.push(heardAt.get(id)! - startedAt);
      // Can be below zero: the notification may overtake the commit's own answer to B.
      afterCommit.push(heardAt.get(id)! - committedAt);
    }
    stop();
    const figures = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
    };
    console.log(`live events B → A over PostgreSQL, 200 events, from B starting to publish: ${figures(latencies)}`);
    console.log(`live events B → A over PostgreSQL, 200 events, from B's commit returning: ${figures(afterCommit)}`);
    expect(latencies).toHaveLength(200);
  });
});
