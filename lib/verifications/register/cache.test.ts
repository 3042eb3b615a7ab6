// The in-memory copy of register rows on a real database with its migrations, trigger included
// (PGlite, and PostgreSQL in the postgres project): a row is read once. A change through the
// register's own functions is seen by the very next read. Any other change that commits — a
// transaction, raw SQL that knows nothing of the cache, another instance — is seen once the
// database's notice has arrived: at once on the embedded store, a moment later over a server's
// listening connection, which these tests wait for rather than assume. A read overtaken by a
// change does not keep its stale row.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Db, getDb } from '@/lib/db';
import { type VerificationRequestRow, verificationRequests } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { closeDatabases } from '@/lib/platform/database';
import { listenForSignals } from '@/lib/platform/database-signals';
import type { VerificationRecord } from '@/lib/verification-service';
import { forgetRegisterEntries, REGISTER_CHANGED_CHANNEL, readRegisterEntry } from './cache.server';
import { getRegisterEntry } from './queries.server';
import { refreshRegisterEntry } from './writes.server';

const ID = 'cache-subject';

let db: Db;
/** Database reads made through `read()` below. */
let reads = 0;

function read(id = ID): () => Promise<VerificationRequestRow | undefined> {
  return async () => {
    reads += 1;
    const [row] = await db.select().from(verificationRequests).where(eq(verificationRequests.verificationId, id));
    return row;
  };
}

const entry = (id = ID) => readRegisterEntry(db, id, read(id));

function record(overrides: Partial<VerificationRecord> = {}): VerificationRecord {
  return {
    verification_id: ID,
    status: 'pending',
    requested_name: 'Ada Lovelace',
    identified_name: null,
    identified_date: null,
    verification_method: null,
    failure_reason: null,
    access_expires_at: '2030-06-22T12:00:00.000Z',
    kept_until: '2030-07-15T12:00:00.000Z',
    ...overrides,
  } as VerificationRecord;
}

beforeAll(async () => {
  process.env.DATA_DIR = 'memory://';
  resetEnv();
  db = await getDb();
});

beforeEach(async () => {
  await db.delete(verificationRequests);
  await db.insert(verificationRequests).values({
    verificationId: ID,
    name: 'Ada Lovelace',
    purpose: 'legal_obligations',
    language: 'en',
    shareableLink: false,
    emailNotification: true,
    smsNotification: false,
    status: 'pending',
  });
  // Raw writes, whose notices reach a server's listener a moment later: wait for them, so no test
  // starts with the previous test's row in memory or meets a late notice mid-test.
  await settleNotices();
  forgetRegisterEntries(db);
  reads = 0;
});

let fences = 0;

/**
 * Resolves once every register notice committed so far has reached this process: notices are
 * delivered in commit order, so a marker sent now arrives after all of them.
 */
async function settleNotices(): Promise<void> {
  fences += 1;
  const fence = `test-fence-${fences}`;
  let arrived!: () => void;
  const fenceSeen = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const watcher = await listenForSignals(db, REGISTER_CHANGED_CHANNEL, { onSignal: (payload) => payload === fence && arrived() });
  await db.execute(sql`SELECT pg_notify(${REGISTER_CHANGED_CHANNEL}, ${fence})`);
  await fenceSeen;
  await watcher.stop();
}

afterAll(async () => {
  await closeDatabases();
});

describe('register cache', () => {
  it('reads a row from the database once, then from memory', async () => {
    expect((await entry())?.name).toBe('Ada Lovelace');
    expect((await entry())?.name).toBe('Ada Lovelace');
    expect(reads).toBe(1);
  });

  it('does not keep an absence: a row created afterwards shows at once', async () => {
    expect(await entry('created-later')).toBeUndefined();
    await db.insert(verificationRequests).values({
      verificationId: 'created-later',
      name: 'Grace Hopper',
      purpose: 'gdpr',
      language: 'fr',
      shareableLink: true,
      emailNotification: false,
      smsNotification: false,
    });
    expect((await entry('created-later'))?.name).toBe('Grace Hopper');
  });

  it.each([
    ['an UPDATE in raw SQL', () => db.execute(sql`UPDATE verification_requests SET status = 'completed'`)],
    ['a DELETE of every row', () => db.delete(verificationRequests)],
    // CASCADE: name reviews refer to register rows.
    ['a TRUNCATE', () => db.execute(sql`TRUNCATE verification_requests CASCADE`)],
    [
      'an update of another row',
      async () => {
        await db.insert(verificationRequests).values({
          verificationId: 'other',
          name: 'Other',
          purpose: 'gdpr',
          language: 'en',
          shareableLink: false,
          emailNotification: true,
          smsNotification: false,
        });
      },
    ],
  ])('forgets its rows when %s commits', async (_label, change) => {
    await entry();
    await change();
    // On a server the notice comes over the listening connection, a moment after the commit
    // (on the embedded store, before the writer's await returns): the first read after it re-reads.
    await expect
      .poll(async () => {
        await entry();
        return reads;
      })
      .toBe(2);
  });

  it('sees a change made in a transaction once the transaction commits, not before', async () => {
    await entry();
    await db.transaction(async (tx) => {
      await tx.update(verificationRequests).set({ status: 'failed' }).where(eq(verificationRequests.verificationId, ID));
      // Not committed yet: the row as last committed is still the right answer outside.
      expect((await entry())?.status).toBe('pending');
    });
    await expect.poll(async () => (await entry())?.status).toBe('failed');
  });

  it('does not keep a row read before a change that committed while the read was under way', async () => {
    // The change's notice must reach this process before the read returns, so that only the
    // generation counter (not a notice arriving later) can keep the stale row out. On a server the
    // notice comes over the listening connection a moment after the commit: wait for it.
    let noticed!: () => void;
    const notice = new Promise<void>((resolve) => {
      noticed = resolve;
    });
    const watcher = await listenForSignals(db, REGISTER_CHANGED_CHANNEL, { onSignal: () => noticed() });
    const overtaken = readRegisterEntry(db, ID, async () => {
      const row = await read()();
      // The change commits between this read's SELECT and its return.
      await db.execute(sql`UPDATE verification_requests SET status = 'expired'`);
      await notice;
      return row;
    });
    expect((await overtaken)?.status).toBe('pending');
    expect((await entry())?.status).toBe('expired');
    await watcher.stop();
  });

  it('serves the register functions: a refresh that changes the row is seen by the next read', async () => {
    expect((await getRegisterEntry(ID))?.status).toBe('pending');
    expect(await refreshRegisterEntry(ID, record({ status: 'completed', identified_name: 'ADA LOVELACE' }))).toBe('completed');
    const after = await getRegisterEntry(ID);
    expect(after?.status).toBe('completed');
    expect(after?.identifiedName).toBe('ADA LOVELACE');
  });
});
