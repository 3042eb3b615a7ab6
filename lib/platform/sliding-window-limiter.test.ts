// The sliding-window limiter with a controlled clock.
import { describe, expect, it } from 'vitest';
import { createSlidingWindowLimiter } from './sliding-window-limiter';

const T0 = 1_700_000_000_000;

describe('createSlidingWindowLimiter', () => {
  it('allows `limit` events in the window and refuses the next', () => {
    const limiter = createSlidingWindowLimiter({ limit: 3, windowMs: 60_000 });
    expect([0, 1, 2].map((i) => limiter.take('a', T0 + i * 1000).allowed)).toEqual([true, true, true]);
    expect(limiter.take('a', T0 + 3000)).toEqual({ allowed: false, limit: 3, retryAfterSeconds: 57 });
  });

  it('slides: a slot frees exactly when the oldest event leaves the window, and retry-after says when', () => {
    const limiter = createSlidingWindowLimiter({ limit: 2, windowMs: 60_000 });
    limiter.take('a', T0);
    limiter.take('a', T0 + 30_000);
    const refused = limiter.take('a', T0 + 59_500);
    // 500 ms to go: rounded up to a whole second, never 0.
    expect(refused).toEqual({ allowed: false, limit: 2, retryAfterSeconds: 1 });
    expect(limiter.take('a', T0 + 59_999).allowed).toBe(false);
    expect(limiter.take('a', T0 + 60_000).allowed).toBe(true);
    // Now the event at T0 + 30 s is the oldest of two: the next slot frees at T0 + 90 s.
    expect(limiter.take('a', T0 + 61_000)).toEqual({ allowed: false, limit: 2, retryAfterSeconds: 29 });
  });

  it('retrying at the announced time succeeds', () => {
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 60_000 });
    limiter.take('a', T0 + 250);
    const refused = limiter.take('a', T0 + 10_000);
    if (refused.allowed) throw new Error('expected a refusal');
    expect(refused.retryAfterSeconds).toBe(51);
    expect(limiter.take('a', T0 + 10_000 + refused.retryAfterSeconds * 1000).allowed).toBe(true);
  });

  it('does not count refused events, so hammering does not push the retry time away', () => {
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 60_000 });
    limiter.take('a', T0);
    for (let i = 1; i < 50; i++) limiter.take('a', T0 + i * 1000);
    expect(limiter.take('a', T0 + 60_000).allowed).toBe(true);
  });

  it('keeps keys independent', () => {
    const limiter = createSlidingWindowLimiter({ limit: 1, windowMs: 60_000 });
    expect(limiter.take('a', T0).allowed).toBe(true);
    expect(limiter.take('a', T0).allowed).toBe(false);
    expect(limiter.take('b', T0).allowed).toBe(true);
  });

  it('lets a repeat of the same event id through without using a slot', () => {
    const limiter = createSlidingWindowLimiter({ limit: 2, windowMs: 60_000 });
    expect(limiter.take('a', T0, 'form-1').allowed).toBe(true);
    expect(limiter.take('a', T0 + 1, 'form-1').allowed).toBe(true);
    expect(limiter.take('a', T0 + 2, 'form-2').allowed).toBe(true);
    expect(limiter.take('a', T0 + 3, 'form-3').allowed).toBe(false);
  });

  it('reads a limit given as a function on every call', () => {
    let limit = 1;
    const limiter = createSlidingWindowLimiter({ limit: () => limit, windowMs: 60_000 });
    limiter.take('a', T0);
    expect(limiter.take('a', T0).allowed).toBe(false);
    limit = 2;
    expect(limiter.take('a', T0).allowed).toBe(true);
  });

  it('drops keys whose events have all expired, so memory is bounded by recent keys', () => {
    const limiter = createSlidingWindowLimiter({ limit: 5, windowMs: 60_000 });
    for (let i = 0; i < 1000; i++) limiter.take(`key-${i}`, T0);
    expect(limiter.size()).toBe(1000);
    limiter.take('late', T0 + 60_000);
    expect(limiter.size()).toBe(1);
  });
});
