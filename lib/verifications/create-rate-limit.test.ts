// The per-staff limit on creating verification requests that the create action checks after
// validation, with a controlled clock.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnv } from '@/lib/env';
import { checkCreateRateLimit } from './create-rate-limit';

const T0 = 1_700_000_000_000;

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
