// The per-staff limit on creating verification requests that the create action checks after
// validation, with a controlled clock, counted in the database that every instance shares.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb, schema } from '@/lib/db';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { type OtherInstanceDb, openOtherInstanceDb } from '@/test/support/second-instance';
import { checkCreateRateLimit, createVerificationLimiter } from './rate-limit.server';

const T0 = 1_700_000_000_000;

let other: OtherInstanceDb<typeof schema>;

beforeAll(async () => {
  if (!process.env.DATABASE_URL) process.env.DATA_DIR = 'memory://';
  resetEnv();
  other = openOtherInstanceDb(schema, await getDb());
});

afterAll(async () => {
  delete process.env.CREATE_RATE_LIMIT_PER_MINUTE;
  resetEnv();
  await other.close();
  await closeDatabases();
});

describe('checkCreateRateLimit (the create action, after validation, before the service)', () => {
  it('allows 30 creations a minute per staff member by default, then refuses with a clear message', async () => {
    const staff = randomUUID();
    for (let i = 0; i < 30; i++) expect((await checkCreateRateLimit(staff, randomUUID(), T0 + i * 100)).allowed).toBe(true);
    expect(await checkCreateRateLimit(staff, randomUUID(), T0 + 10_000)).toEqual({
      allowed: false,
      title: 'Too many requests',
      message: 'You have created 30 requests in the last minute. Wait 50 seconds and submit again; nothing was created.',
    });
    // Another staff member is not affected; the first may create again once the window has passed.
    expect((await checkCreateRateLimit(randomUUID(), randomUUID(), T0 + 10_000)).allowed).toBe(true);
    expect((await checkCreateRateLimit(staff, randomUUID(), T0 + 60_000)).allowed).toBe(true);
  });

  it('counts the creations another instance allowed: the limit is per staff member, not per instance', async () => {
    const staff = randomUUID();
    const elsewhere = createVerificationLimiter(async () => other.db);
    for (let i = 0; i < 20; i++) expect((await elsewhere.take(staff, { now: T0 + i, eventId: randomUUID() })).allowed).toBe(true);
    for (let i = 0; i < 10; i++) expect((await checkCreateRateLimit(staff, randomUUID(), T0 + 100 + i)).allowed).toBe(true);
    expect(await checkCreateRateLimit(staff, randomUUID(), T0 + 1_000)).toMatchObject({
      allowed: false,
      message: expect.stringContaining('created 30 requests'),
    });
  });

  it('counts a double submission of the same form once', async () => {
    process.env.CREATE_RATE_LIMIT_PER_MINUTE = '2';
    resetEnv();
    try {
      const staff = randomUUID();
      const form = randomUUID();
      expect((await checkCreateRateLimit(staff, form, T0)).allowed).toBe(true);
      expect((await checkCreateRateLimit(staff, form, T0 + 50)).allowed).toBe(true);
      expect((await checkCreateRateLimit(staff, randomUUID(), T0 + 100)).allowed).toBe(true);
      const refused = await checkCreateRateLimit(staff, randomUUID(), T0 + 59_500);
      expect(refused).toMatchObject({ allowed: false, message: expect.stringContaining('created 2 requests') });
      expect(refused).toMatchObject({ message: expect.stringContaining('Wait 1 second and') });
    } finally {
      delete process.env.CREATE_RATE_LIMIT_PER_MINUTE;
      resetEnv();
    }
  });
});
