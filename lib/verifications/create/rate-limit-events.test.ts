// The shared rate limits' table is kept small: the hourly retention run removes the events of
// keys that were never seen again, and keeps every event a limit may still count.
import { randomUUID } from 'node:crypto';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { rateLimitEvents } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { runDashboardRetention } from '@/lib/jobs/retention-jobs';
import { closeDatabases } from '@/lib/platform/database';
import { checkCreateRateLimit } from './rate-limit.server';
import { RATE_LIMIT_EVENTS_KEPT_MS } from './rate-limit-events.server';

beforeAll(() => {
  if (!process.env.DATABASE_URL) process.env.DATA_DIR = 'memory://';
  resetEnv();
});

afterAll(async () => {
  await closeDatabases();
});

async function eventsOf(staffId: string): Promise<number> {
  const rows = await (await getDb())
    .select()
    .from(rateLimitEvents)
    .where(like(rateLimitEvents.key, `%:${staffId}`));
  return rows.length;
}

describe('the retention run', () => {
  it('removes rate-limit events of staff members who never came back, and keeps those still counted', async () => {
    const gone = randomUUID();
    const active = randomUUID();
    await checkCreateRateLimit(gone, randomUUID(), Date.now() - RATE_LIMIT_EVENTS_KEPT_MS - 60_000);
    await checkCreateRateLimit(active, randomUUID(), Date.now() - 30_000);

    const result = await runDashboardRetention();
    expect(result.rateLimitEvents).toBeGreaterThanOrEqual(1);
    expect(await eventsOf(gone)).toBe(0);
    expect(await eventsOf(active)).toBe(1);
  });
});
