import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureLogs, stopCapturingLogs } from '@/lib/testing/logs';
import { createLiveBus, currentEventId, eventsSince, getLiveBus, publishVerificationChange, REPLAY_CAPACITY, subscribe } from './bus';

afterEach(() => {
  vi.restoreAllMocks();
  stopCapturingLogs();
});

describe('createLiveBus', () => {
  it('gives every event a strictly increasing id and hands it to every subscriber', () => {
    const bus = createLiveBus({ firstId: 10 });
    const heard: number[] = [];
    const other: string[] = [];
    bus.subscribe((e) => heard.push(e.id));
    bus.subscribe((e) => other.push(`${e.verificationId}:${e.status}`));

    const a = bus.publish({ verificationId: 'v-1', status: 'pending' });
    const b = bus.publish({ verificationId: 'v-2', status: 'completed' });
    const c = bus.publish({ verificationId: 'v-1', status: 'failed' });

    expect([a.id, b.id, c.id]).toEqual([10, 11, 12]);
    expect(heard).toEqual([10, 11, 12]);
    expect(other).toEqual(['v-1:pending', 'v-2:completed', 'v-1:failed']);
    expect(bus.lastEventId()).toBe(12);
  });

  it('starts ids at the clock, so ids keep increasing across a restart', () => {
    const before = Date.now();
    const first = createLiveBus().publish({ verificationId: 'v', status: 'pending' });
    const restarted = createLiveBus().publish({ verificationId: 'v', status: 'pending' });
    expect(first.id).toBeGreaterThanOrEqual(before);
    expect(restarted.id).toBeGreaterThanOrEqual(first.id);
  });

  it('keeps only the listed fields (no name can ride along)', () => {
    const bus = createLiveBus({ firstId: 1 });
    const event = bus.publish({ verificationId: 'v-1', status: 'completed', name: 'Alice' } as never);
    expect(event).toEqual({ id: 1, verificationId: 'v-1', status: 'completed' });
  });

  it('stops calling a listener once unsubscribed', () => {
    const bus = createLiveBus({ firstId: 1 });
    const heard: number[] = [];
    const unsubscribe = bus.subscribe((e) => heard.push(e.id));
    bus.publish({ verificationId: 'v', status: 'pending' });
    unsubscribe();
    bus.publish({ verificationId: 'v', status: 'completed' });
    expect(heard).toEqual([1]);
    expect(bus.listenerCount()).toBe(0);
  });

  it('keeps delivering to the others when one listener throws', () => {
    captureLogs();
    const bus = createLiveBus({ firstId: 1 });
    const heard: number[] = [];
    bus.subscribe(() => {
      throw new Error('broken stream');
    });
    bus.subscribe((e) => heard.push(e.id));
    bus.publish({ verificationId: 'v', status: 'pending' });
    expect(heard).toEqual([1]);
  });

  it('lets a listener unsubscribe another during a publish without skipping anyone', () => {
    const bus = createLiveBus({ firstId: 1 });
    const heard: string[] = [];
    let stopB = () => {};
    bus.subscribe(() => {
      heard.push('a');
      stopB();
    });
    stopB = bus.subscribe(() => heard.push('b'));
    bus.publish({ verificationId: 'v', status: 'pending' });
    expect(heard).toEqual(['a', 'b']);
  });

  describe('eventsSince', () => {
    it('replays the events after the given id, oldest first', () => {
      const bus = createLiveBus({ firstId: 100 });
      for (const status of ['a', 'b', 'c', 'd']) bus.publish({ verificationId: 'v', status });
      expect(bus.eventsSince(101)).toEqual({
        events: [
          { id: 102, verificationId: 'v', status: 'c' },
          { id: 103, verificationId: 'v', status: 'd' },
        ],
        missed: false,
      });
      expect(bus.eventsSince(103)).toEqual({ events: [], missed: false });
      expect(bus.eventsSince(99)).toMatchObject({ missed: false });
      expect(bus.eventsSince(99).events).toHaveLength(4);
    });

    it('says nothing was missed for the id a page was rendered with, before any event', () => {
      const bus = createLiveBus({ firstId: 500 });
      expect(bus.eventsSince(bus.lastEventId())).toEqual({ events: [], missed: false });
    });

    it('is bounded: only the last `capacity` events are kept, and an older id is told it missed some', () => {
      const bus = createLiveBus({ firstId: 1, capacity: 5 });
      for (let i = 0; i < 12; i += 1) bus.publish({ verificationId: `v-${i}`, status: 'pending' });
      const all = bus.eventsSince(0);
      expect(all.events.map((e) => e.id)).toEqual([8, 9, 10, 11, 12]);
      expect(all.missed).toBe(true);
      // Just before the oldest kept event: nothing lost.
      expect(bus.eventsSince(7)).toEqual({ events: all.events, missed: false });
      expect(bus.eventsSince(6).missed).toBe(true);
    });

    it('treats an id it never gave out (a previous process, a made-up value) as missed', () => {
      const bus = createLiveBus({ firstId: 1_000 });
      bus.publish({ verificationId: 'v', status: 'pending' });
      expect(bus.eventsSince(5_000)).toEqual({ events: [], missed: true });
      expect(bus.eventsSince(10).missed).toBe(true);
      expect(bus.eventsSince(Number.NaN).missed).toBe(true);
    });
  });
});

describe('the process-wide bus', () => {
  it('lives on globalThis, so separately bundled modules share it', () => {
    const key = Symbol.for('verification-desk.live-bus');
    expect((globalThis as unknown as Record<symbol, unknown>)[key] ?? getLiveBus()).toBe(getLiveBus());
  });

  it('publishes, replays and unsubscribes through the module functions', () => {
    const start = currentEventId();
    const heard: string[] = [];
    const stop = subscribe((e) => heard.push(e.status));
    const a = publishVerificationChange({ verificationId: 'v-1', status: 'completed' });
    const b = publishVerificationChange({ verificationId: 'v-2', status: 'failed' });
    stop();
    publishVerificationChange({ verificationId: 'v-3', status: 'expired' });
    expect(heard).toEqual(['completed', 'failed']);
    expect(b.id).toBe(a.id + 1);
    expect(eventsSince(start).events.map((e) => e.verificationId)).toEqual(['v-1', 'v-2', 'v-3']);
    expect(REPLAY_CAPACITY).toBeGreaterThanOrEqual(500);
  });
});
