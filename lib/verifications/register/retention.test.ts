// The register's retention purge against a real (in-memory) PGlite database, with `now` chosen.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases, rowsOf } from '@/lib/platform/database';
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

  it('deletes in batches, one transaction each, with their audit entries, and leaves the rows between batches free', async () => {
    for (let i = 1; i <= 7; i += 1) await add(`due-${i}`, new Date(`2029-01-0${i}T00:00:00.000Z`));
    await add('future', new Date(NOW.getTime() + 1));
    const db = await getDb();
    const transaction = db.transaction.bind(db);
    let transactions = 0;
    let between: { left: string[]; audited: number; locked: string[] } | undefined;
    const spy = vi.spyOn(db, 'transaction').mockImplementation(async (run) => {
      const result = await transaction(run);
      transactions += 1;
      if (transactions === 1) {
        // After the first batch committed, before the second: the rest of the due rows can be
        // read, and locked at once (NOWAIT fails instead of waiting on a lock a purge still holds).
        const audited = await db.select().from(auditEntries).where(eq(auditEntries.action, 'verification.removed'));
        const locked = await transaction(async (tx) =>
          rowsOf<{ id: string }>(
            await tx.execute(
              sql`select verification_id as id from verification_requests where verification_id like 'due-%' for update nowait`,
            ),
          ),
        );
        between = { left: await ids(), audited: audited.length, locked: locked.map((row) => row.id).sort() };
      }
      return result;
    });
    try {
      expect(await purgeExpiredRegisterEntries(NOW, { batchSize: 3 })).toBe(7);
    } finally {
      spy.mockRestore();
    }
    // 3 + 3 + 1: the purge stops at the first batch that was not full.
    expect(transactions).toBe(3);
    // The soonest due went first, with their entries, in the same commit.
    expect(between).toEqual({
      left: ['due-4', 'due-5', 'due-6', 'due-7', 'future'],
      audited: 3,
      locked: ['due-4', 'due-5', 'due-6', 'due-7'],
    });
    expect(await ids()).toEqual(['future']);
    const entries = await db.select().from(auditEntries).where(eq(auditEntries.action, 'verification.removed'));
    expect(entries.map((e) => e.targetId).sort()).toEqual(['due-1', 'due-2', 'due-3', 'due-4', 'due-5', 'due-6', 'due-7']);
  });
});
