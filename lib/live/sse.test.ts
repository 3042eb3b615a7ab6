// The event stream on its own, fed from the log on a real database: first frames, replay, live
// frames, heartbeat, and that every way of ending it releases the subscription and the timers.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { frameReader, until } from '@/test/support/live';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { createLiveBus, currentEventId, getLiveBus, type LiveBus, publishVerificationChange } from './bus';
import { appendLiveEvent } from './event-log';
import { createEventStream, RECONNECT_DELAY_MS, readLastEventId, verificationFrame } from './sse';

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  // Opening the database and starting the feed can take seconds on a busy machine: done here,
  // the tests' own waits are for what they test.
  await getDb();
  (await getLiveBus().subscribe(() => undefined))();
}, 120_000);

afterEach(() => {
  vi.useRealTimers();
  stopCapturingLogs();
});

afterAll(async () => {
  await closeDatabases();
});

/** Publishes `count` changes in one transaction (a burst), oldest first. */
async function publishMany(count: number) {
  const db = await getDb();
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i += 1) await appendLiveEvent(tx, { verificationId: `v-${i}`, status: 'pending' });
  });
}

function open(options: Partial<Parameters<typeof createEventStream>[0]> = {}) {
  const abort = new AbortController();
  const stream = createEventStream({ signal: abort.signal, ...options });
  return { abort, frames: frameReader(stream) };
}

describe('createEventStream', () => {
  it('starts with the reconnection delay, then streams each published change', async () => {
    const { abort, frames } = open();
    const first = await frames.next();
    expect(first.retry).toBe(String(RECONNECT_DELAY_MS));

    const event = await publishVerificationChange({ verificationId: 'v-1', status: 'completed' });
    const frame = await frames.next();
    expect(frame).toMatchObject({ id: String(event.id), event: 'verification' });
    expect(JSON.parse(frame.data!)).toEqual({ verificationId: 'v-1', status: 'completed' });
    abort.abort();
  });

  it('replays what came after lastEventId before anything live, in order', async () => {
    const since = await currentEventId();
    const a = await publishVerificationChange({ verificationId: 'v-a', status: 'pending' });
    const b = await publishVerificationChange({ verificationId: 'v-b', status: 'failed' });
    const { abort, frames } = open({ lastEventId: since });
    await frames.next(); // retry
    expect((await frames.next()).id).toBe(String(a.id));
    expect((await frames.next()).id).toBe(String(b.id));
    const c = await publishVerificationChange({ verificationId: 'v-c', status: 'expired' });
    expect((await frames.next()).id).toBe(String(c.id));
    abort.abort();
  });

  it('replays nothing to a first connection', async () => {
    const old = await publishVerificationChange({ verificationId: 'v-old', status: 'pending' });
    await until(() => getLiveBus().deliveredUpTo() >= old.id, 'the feed to hand out the older event');
    const { abort, frames } = open();
    await frames.next();
    const live = await publishVerificationChange({ verificationId: 'v-new', status: 'pending' });
    expect((await frames.next()).id).toBe(String(live.id));
    abort.abort();
  });

  it('tells a client whose id cannot be replayed to resync, and moves its id forward', async () => {
    const newest = await publishVerificationChange({ verificationId: 'v', status: 'pending' });
    const { abort, frames } = open({ lastEventId: newest.id + 1_000 });
    await frames.next();
    const resync = await frames.next();
    expect(resync.event).toBe('resync');
    expect(resync.id).toBe(String(newest.id));
    const next = await publishVerificationChange({ verificationId: 'v', status: 'completed' });
    expect((await frames.next()).id).toBe(String(next.id));
    abort.abort();
  });

  it('sends an event that both the replay and the live feed saw once, in order', async () => {
    const since = await currentEventId();
    const before = await publishVerificationChange({ verificationId: 'v-before', status: 'pending' });
    const real = getLiveBus();
    let during: { id: number } | undefined;
    // Between the subscription and the replay's read, an event commits and the feed hands it
    // out: it is both in the replay and among the live events held back meanwhile.
    const racing: LiveBus = {
      ...real,
      subscribe: (listener) => real.subscribe(listener),
      async eventsSince(lastEventId) {
        during = await publishVerificationChange({ verificationId: 'v-during', status: 'completed' });
        await until(() => real.deliveredUpTo() >= during!.id, 'the feed to hand out the racing event');
        return real.eventsSince(lastEventId);
      },
    };
    const { abort, frames } = open({ lastEventId: since, bus: racing });
    await frames.next(); // retry
    expect((await frames.next()).id).toBe(String(before.id));
    expect((await frames.next()).id).toBe(String(during!.id));
    const after = await publishVerificationChange({ verificationId: 'v-after', status: 'pending' });
    expect((await frames.next()).id).toBe(String(after.id));
    abort.abort();
  });

  it('ends the stream, and frees its slot, when the database cannot be reached', async () => {
    captureLogs();
    let closes = 0;
    const down = createLiveBus(() => Promise.reject(new Error('connect ECONNREFUSED')));
    const abort = new AbortController();
    const frames = frameReader(createEventStream({ signal: abort.signal, bus: down, onClose: () => (closes += 1) }));
    expect(await frames.ended(2_000)).toBe(true);
    expect(closes).toBe(1);
    expect(down.listenerCount()).toBe(0);
  });

  it('sends a heartbeat comment on the interval', async () => {
    const { abort, frames } = open({ heartbeatMs: 30 });
    await frames.next();
    const beat = await frames.next(500);
    expect(beat.comments).toContain('heartbeat');
    expect(beat.data).toBeUndefined();
    abort.abort();
  });

  it('releases the subscription and ends the body when the request is aborted', async () => {
    const listeners = getLiveBus().listenerCount();
    const { abort, frames } = open({ heartbeatMs: 10 });
    await frames.next();
    expect(getLiveBus().listenerCount()).toBe(listeners + 1);
    abort.abort();
    expect(getLiveBus().listenerCount()).toBe(listeners);
    // Whatever was already queued may still be read; then the body ends.
    let ended = false;
    for (let i = 0; i < 10 && !ended; i += 1) ended = await frames.ended(200).catch(() => false);
    expect(ended).toBe(true);
  });

  it('releases the subscription when the consumer cancels the body', async () => {
    const listeners = getLiveBus().listenerCount();
    const { frames } = open();
    await frames.next();
    expect(getLiveBus().listenerCount()).toBe(listeners + 1);
    await frames.cancel();
    expect(getLiveBus().listenerCount()).toBe(listeners);
  });

  it('clears its timers when it ends (no interval keeps firing)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const check = vi.fn(async () => true);
    const { abort, frames } = open({ heartbeatMs: 1_000, sessionStillValid: check, sessionCheckMs: 1_000 });
    await frames.next();
    expect(vi.getTimerCount()).toBe(2);
    abort.abort();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ends the stream once the session is no longer valid', async () => {
    const listeners = getLiveBus().listenerCount();
    let valid = true;
    const { frames } = open({ sessionStillValid: async () => valid, sessionCheckMs: 20 });
    await frames.next();
    valid = false;
    let ended = false;
    for (let i = 0; i < 10 && !ended; i += 1) ended = await frames.ended(200);
    expect(ended).toBe(true);
    expect(getLiveBus().listenerCount()).toBe(listeners);
  });

  it('checks its session at once when told sessions changed, not at the next periodic check', async () => {
    let recheck: () => void = () => {};
    let unwatched = 0;
    let valid = true;
    const { frames } = open({
      sessionStillValid: async () => valid,
      sessionCheckMs: 60 * 60 * 1000,
      watchSessions: (listener) => {
        recheck = listener;
        return () => {
          unwatched += 1;
        };
      },
    });
    await frames.next();
    valid = false;
    recheck();
    let ended = false;
    for (let i = 0; i < 10 && !ended; i += 1) ended = await frames.ended(200);
    expect(ended).toBe(true);
    expect(unwatched).toBe(1); // a closed stream stops watching
  });

  it('checks again when told during a check that may have read the session before the change', async () => {
    let recheck: () => void = () => {};
    const answers: Array<(valid: boolean) => void> = [];
    const { frames } = open({
      sessionStillValid: () => new Promise<boolean>((resolve) => answers.push(resolve)),
      sessionCheckMs: 60 * 60 * 1000,
      watchSessions: (listener) => {
        recheck = listener;
        return () => {};
      },
    });
    await frames.next();
    recheck(); // a first change: a check starts…
    recheck(); // …and a second arrives while it runs: not a second concurrent check, but one after it
    expect(answers).toHaveLength(1);
    answers[0]!(true); // the running check read the session before the second change
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers[1]!(false);
    let ended = false;
    for (let i = 0; i < 10 && !ended; i += 1) ended = await frames.ended(200);
    expect(ended).toBe(true);
  });

  it('keeps the stream when the session check itself fails (cannot tell)', async () => {
    const { abort, frames } = open({ sessionStillValid: async () => Promise.reject(new Error('db busy')), sessionCheckMs: 10 });
    await frames.next();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const event = await publishVerificationChange({ verificationId: 'v', status: 'pending' });
    expect((await frames.next()).id).toBe(String(event.id));
    abort.abort();
  });

  it('closes at once for a request that was already aborted', async () => {
    const listeners = getLiveBus().listenerCount();
    const abort = new AbortController();
    abort.abort();
    const frames = frameReader(createEventStream({ signal: abort.signal }));
    expect(await frames.ended(500)).toBe(true);
    expect(getLiveBus().listenerCount()).toBe(listeners);
  });

  it('gives up on a client that reads nothing rather than queueing without bound', async () => {
    const listeners = getLiveBus().listenerCount();
    const abort = new AbortController();
    createEventStream({ signal: abort.signal }); // never read
    await until(() => getLiveBus().listenerCount() === listeners + 1, 'the stream to subscribe');
    await publishMany(1_100);
    await until(() => getLiveBus().listenerCount() === listeners, 'the stalled stream to be closed');
  });
});

describe("createEventStream onClose (what frees a stream's slot)", () => {
  it('is called exactly once, whichever way the stream ends', async () => {
    const closes = { abort: 0, cancel: 0, session: 0, stalled: 0, abortedBefore: 0 };

    const aborted = open({ onClose: () => (closes.abort += 1) });
    aborted.abort.abort();
    aborted.abort.abort();

    const cancelled = open({ onClose: () => (closes.cancel += 1) });
    await cancelled.frames.cancel();
    cancelled.abort.abort();

    const signedOut = open({ onClose: () => (closes.session += 1), sessionStillValid: async () => false, sessionCheckMs: 10 });
    await signedOut.frames.next();
    for (let i = 0; i < 20 && closes.session === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    signedOut.abort.abort();

    const subscribed = getLiveBus().listenerCount();
    const abort = new AbortController();
    createEventStream({ signal: abort.signal, onClose: () => (closes.stalled += 1) }); // never read
    await until(() => getLiveBus().listenerCount() === subscribed + 1, 'the stalled stream to subscribe');
    await publishMany(1_100);
    await until(() => closes.stalled === 1, 'the stalled stream to be closed');
    abort.abort();

    const already = new AbortController();
    already.abort();
    createEventStream({ signal: already.signal, onClose: () => (closes.abortedBefore += 1) });

    expect(closes).toEqual({ abort: 1, cancel: 1, session: 1, stalled: 1, abortedBefore: 1 });
  });
});

describe('verificationFrame', () => {
  it('keeps an id with a newline inside one data line', () => {
    const frame = verificationFrame({ id: 7, verificationId: 'a\nb', status: 'pending' });
    expect(frame).toBe('id: 7\nevent: verification\ndata: {"verificationId":"a\\nb","status":"pending"}\n\n');
  });
});

describe('readLastEventId', () => {
  const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

  it('prefers the Last-Event-ID header (a reconnect) over the query (the first connection)', () => {
    expect(readLastEventId(request('http://x/api/events?lastEventId=5', { 'Last-Event-ID': '9' }))).toBe(9);
    expect(readLastEventId(request('http://x/api/events?lastEventId=5'))).toBe(5);
    expect(readLastEventId(request('http://x/api/events'))).toBeUndefined();
  });

  it('ignores anything that is not a plain number', () => {
    for (const value of ['abc', '-1', '1e5', '', '12345678901234567890']) {
      expect(readLastEventId(request('http://x/api/events', { 'Last-Event-ID': value })), value).toBeUndefined();
    }
  });
});
