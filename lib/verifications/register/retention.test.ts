// The register's retention purge against a real (in-memory) PGlite database, with `now` chosen.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { purgeExpiredRegisterEntries } from './retention.server';

const NOW = new Date('2030-06-01T12:00:00.000Z');

async function add(verificationId: string, keptUntil: Date | null) {
  const db = await getDb();
  await db.insert(verificationRequests).values({
    verificationId,
    name: 'Alice Martin',
    purpose: 'legal_obligations',
    language: 'en',
    shareableLink: false,
    emailNotification: true,
    smsNotification: false,
    keptUntil,
  });
}

async function ids(): Promise<string[]> {
  const db = await getDb();
  return (await db.select({ id: verificationRequests.verificationId }).from(verificationRequests)).map((r) => r.id).sort();
}

beforeAll(() => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
});

beforeEach(async () => {
  const db = await getDb();
  await db.delete(verificationRequests);
  await db.delete(auditEntries);
});

afterAll(async () => {
  await closeDatabases();
});

describe('purgeExpiredRegisterEntries', () => {
  it('deletes the rows whose kept_until has passed (or is now), keeps the others, returns the count', async () => {
    await add('past', new Date(NOW.getTime() - 1));
    await add('long-past', new Date('2029-01-01T00:00:00.000Z'));
    await add('exactly-now', NOW);
    await add('future', new Date(NOW.getTime() + 1));
    await add('unknown', null);

    expect(await purgeExpiredRegisterEntries(NOW)).toBe(3);
    expect(await ids()).toEqual(['future', 'unknown']);
  });

  it('follows the `now` it is given', async () => {
    await add('a', new Date('2030-06-10T00:00:00.000Z'));
    await add('b', new Date('2030-06-20T00:00:00.000Z'));
    expect(await purgeExpiredRegisterEntries(NOW)).toBe(0);
    expect(await purgeExpiredRegisterEntries(new Date('2030-06-15T00:00:00.000Z'))).toBe(1);
    expect(await ids()).toEqual(['b']);
    expect(await purgeExpiredRegisterEntries(new Date('2031-01-01T00:00:00.000Z'))).toBe(1);
    expect(await ids()).toEqual([]);
  });

  it('records one audit entry per removed id (ids and a reason only)', async () => {
    await add('gone-1', new Date('2029-01-01T00:00:00.000Z'));
    await add('gone-2', new Date('2029-01-01T00:00:00.000Z'));
    await add('kept', new Date('2031-01-01T00:00:00.000Z'));
    await purgeExpiredRegisterEntries(NOW);
    const db = await getDb();
    const entries = await db.select().from(auditEntries).where(eq(auditEntries.action, 'verification.removed'));
    expect(entries.map((e) => e.targetId).sort()).toEqual(['gone-1', 'gone-2']);
    for (const entry of entries)
      expect(entry).toMatchObject({ actorId: null, targetType: 'verification', details: { reason: 'retention' } });
    expect(
      await db
        .select()
        .from(auditEntries)
        .where(inArray(auditEntries.targetId, ['kept'])),
    ).toEqual([]);
  });

  it('defaults to the current time and returns 0 when nothing is due', async () => {
    await add('far', new Date(Date.now() + 24 * 60 * 60 * 1000));
    expect(await purgeExpiredRegisterEntries()).toBe(0);
    expect(await ids()).toEqual(['far']);
  });
});
