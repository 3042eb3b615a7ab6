// The dashboard's sliding-window limiter with a controlled clock, and the per-staff limit on
// creating verification requests that the create action checks after validation.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnv } from './env';
import { checkCreateRateLimit, createRateLimiter } from './rate-limit';

const T0 = 1_700_000_000_000;

describe('createRateLimiter', () => {
  it('allows `limit` events in the window and refuses the next', () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000 });
    expect([0, 1, 2].map((i) => limiter.take('a', T0 + i * 1000).allowed)).toEqual([true, true, true]);
    expect(limiter.take('a', T0 + 3000)).toEqual({ allowed: false, limit: 3, retryAfterSeconds: 57 });
  });

  it('slides: a slot frees exactly when the oldest event leaves the window, and retry-after says when', () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 });
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
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000 });
    limiter.take('a', T0 + 250);
    const refused = limiter.take('a', T0 + 10_000);
    if (refused.allowed) throw new Error('expected a refusal');
    expect(refused.retryAfterSeconds).toBe(51);
    expect(limiter.take('a', T0 + 10_000 + refused.retryAfterSeconds * 1000).allowed).toBe(true);
  });

  it('does not count refused events, so hammering does not push the retry time away', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000 });
    limiter.take('a', T0);
    for (let i = 1; i < 50; i++) limiter.take('a', T0 + i * 1000);
    expect(limiter.take('a', T0 + 60_000).allowed).toBe(true);
  });

  it('keeps keys independent', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000 });
    expect(limiter.take('a', T0).allowed).toBe(true);
    expect(limiter.take('a', T0).allowed).toBe(false);
    expect(limiter.take('b', T0).allowed).toBe(true);
  });

  it('lets a repeat of the same event id through without using a slot', () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 });
    expect(limiter.take('a', T0, 'form-1').allowed).toBe(true);
    expect(limiter.take('a', T0 + 1, 'form-1').allowed).toBe(true);
    expect(limiter.take('a', T0 + 2, 'form-2').allowed).toBe(true);
    expect(limiter.take('a', T0 + 3, 'form-3').allowed).toBe(false);
  });

  it('reads a limit given as a function on every call', () => {
    let limit = 1;
    const limiter = createRateLimiter({ limit: () => limit, windowMs: 60_000 });
    limiter.take('a', T0);
    expect(limiter.take('a', T0).allowed).toBe(false);
    limit = 2;
    expect(limiter.take('a', T0).allowed).toBe(true);
  });

  it('drops keys whose events have all expired, so memory is bounded by recent keys', () => {
    const limiter = createRateLimiter({ limit: 5, windowMs: 60_000 });
    for (let i = 0; i < 1000; i++) limiter.take(`key-${i}`, T0);
    expect(limiter.size()).toBe(1000);
    limiter.take('late', T0 + 60_000);
    expect(limiter.size()).toBe(1);
  });
});

describe('checkCreateRateLimit (the create action, after validation, before the service)', () => {
  afterEach(() => {
    delete process.env.CREATE_RATE_LIMIT_PER_MINUTE;
    resetEnv();
  });

  it('allows 30 creations a minute per staff member by default, then refuses with a clear message', () => {
    const staff = randomUUID();
    for (let i = 0; i < 30; i++) expect(checkCreateRateLimit(staff, randomUUID(), T0 + i * 100).allowed).toBe(true);
    expect(checkCreateRateLimit(staff, randomUUID(), T0 + 10_000)).toEqual({
      allowed: false,
      title: 'Too many requests',
      message: 'You have created 30 requests in the last minute. Wait 50 seconds and submit again; nothing was created.',
    });
    // Another staff member is not affected; the first may create again once the window has passed.
    expect(checkCreateRateLimit(randomUUID(), randomUUID(), T0 + 10_000).allowed).toBe(true);
    expect(checkCreateRateLimit(staff, randomUUID(), T0 + 60_000).allowed).toBe(true);
  });

  it('counts a double submission of the same form once', () => {
    process.env.CREATE_RATE_LIMIT_PER_MINUTE = '2';
    resetEnv();
    const staff = randomUUID();
    const form = randomUUID();
    expect(checkCreateRateLimit(staff, form, T0).allowed).toBe(true);
    expect(checkCreateRateLimit(staff, form, T0 + 50).allowed).toBe(true);
    expect(checkCreateRateLimit(staff, randomUUID(), T0 + 100).allowed).toBe(true);
    const refused = checkCreateRateLimit(staff, randomUUID(), T0 + 59_500);
    expect(refused).toMatchObject({ allowed: false, message: expect.stringContaining('created 2 requests') });
    expect(refused).toMatchObject({ message: expect.stringContaining('Wait 1 second and') });
  });
});
