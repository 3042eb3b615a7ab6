// The queue's rules on a real database (PGlite, and PostgreSQL in the `postgres` project): each
// reason enters when its state holds and leaves by itself when its cause is gone, oldest first,
// with the assignee and the filters mine / unassigned / a colleague.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { nameReviews, verificationRequests } from '@/lib/db/schema';
import { ADA, at, DAY, HOUR, insert, NOW, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { listQueue } from './queue.server';

setUpRegisterDatabase();

const context = { now: NOW, pendingDays: 3, followUpDays: 30, staffId: OTTO };
const reasonsOf = async (filter: Parameters<typeof listQueue>[0] = 'all') =>
  Object.fromEntries((await listQueue(filter, context)).items.map((item) => [item.verificationId, item.reason]));

describe('the queue (needs attention)', () => {
  it('lists each reason while its state holds, oldest first, and nothing else', async () => {
    await insert(
      row({ verificationId: 'mismatch', status: 'completed', identifiedName: 'Someone Else', nameMismatch: true, createdAt: at(-5 * DAY) }),
      row({ verificationId: 'matching', status: 'completed', identifiedName: 'Person', nameMismatch: false }),
      row({ verificationId: 'failed', status: 'failed', failureReason: 'document_unreadable', createdAt: at(-4 * DAY) }),
      row({ verificationId: 'expired', status: 'expired', createdAt: at(-10 * DAY) }),
      row({ verificationId: 'expiring', status: 'pending', accessExpiresAt: at(5 * HOUR), createdAt: at(-6 * DAY) }),
      row({ verificationId: 'stale', status: 'pending', createdAt: at(-3 * DAY - HOUR), accessExpiresAt: at(3 * DAY) }),
      row({ verificationId: 'fresh', status: 'pending', createdAt: at(-2 * DAY) }),
      // Old and pending, but by e-mail only: no link to run out, so only "stale".
      row({
        verificationId: 'no-link',
        status: 'pending',
        shareableLink: false,
        link: null,
        createdAt: at(-7 * DAY),
        accessExpiresAt: at(HOUR),
      }),
    );
    const queue = await listQueue('all', context);
    expect(queue.items.map((item) => [item.verificationId, item.reason])).toEqual([
      ['expired', 'expired'],
      ['no-link', 'stale'],
      ['expiring', 'expiring'],
      ['mismatch', 'name_mismatch'],
      ['failed', 'failed'],
      ['stale', 'stale'],
    ]);
    expect(queue.counts).toEqual({ name_mismatch: 1, failed: 1, expired: 1, expiring: 1, stale: 2 });
    expect(queue.total).toBe(6);
  });

  it('lets each item go once its cause is gone: reviewed, followed up, completed, or purged', async () => {
    await insert(
      row({ verificationId: 'mismatch', status: 'completed', identifiedName: 'Someone Else', nameMismatch: true }),
      row({ verificationId: 'failed', status: 'failed' }),
      row({ verificationId: 'expired', status: 'expired' }),
      row({ verificationId: 'stale', status: 'pending', createdAt: at(-4 * DAY) }),
    );
    expect(Object.keys(await reasonsOf()).sort()).toEqual(['expired', 'failed', 'mismatch', 'stale']);

    const db = await getDb();
    await db.insert(nameReviews).values({ verificationId: 'mismatch', decision: 'same_person', note: 'Married name.', decidedBy: ADA });
    await insert(
      row({ verificationId: 'again', followsVerificationId: 'failed' }),
      row({ verificationId: 'again-2', followsVerificationId: 'expired' }),
    );
    await db
      .update(verificationRequests)
      .set({ status: 'completed', identifiedName: 'Person' })
      .where(eq(verificationRequests.verificationId, 'stale'));
    expect(await reasonsOf()).toEqual({});

    // The follow-up purged before the request it followed: the earlier one needs someone again.
    await db.delete(verificationRequests).where(eq(verificationRequests.verificationId, 'again'));
    expect(await reasonsOf()).toEqual({ failed: 'failed' });
    await db.delete(verificationRequests).where(eq(verificationRequests.verificationId, 'failed'));
    expect(await reasonsOf()).toEqual({});
  });

  it('shows the assignee, and filters by mine, unassigned and a colleague, with counts to match', async () => {
    await insert(
      row({ verificationId: 'ottos', status: 'failed', assignedTo: OTTO, assignedAt: at(-HOUR) }),
      row({ verificationId: 'adas', status: 'failed', assignedTo: ADA, assignedAt: at(-HOUR) }),
      row({ verificationId: 'nobodys', status: 'expired' }),
    );
    const all = await listQueue('all', context);
    expect(all.items.find((item) => item.verificationId === 'ottos')?.assignee).toEqual({ id: OTTO, name: 'Otto Operator' });
    expect(all.items.find((item) => item.verificationId === 'nobodys')?.assignee).toBeNull();
    expect(Object.keys(await reasonsOf('mine'))).toEqual(['ottos']);
    expect(Object.keys(await reasonsOf('unassigned'))).toEqual(['nobodys']);
    expect(Object.keys(await reasonsOf({ staffId: ADA }))).toEqual(['adas']);
    expect((await listQueue('mine', context)).counts).toEqual({ name_mismatch: 0, failed: 1, expired: 0, expiring: 0, stale: 0 });
  });

  it('counts the pending days from QUEUE_PENDING_DAYS', async () => {
    await insert(row({ verificationId: 'five-days', status: 'pending', createdAt: at(-5 * DAY), accessExpiresAt: at(2 * DAY) }));
    expect(await reasonsOf()).toEqual({ 'five-days': 'stale' });
    expect((await listQueue('all', { ...context, pendingDays: 7 })).items).toEqual([]);
  });

  it('keeps a failed or expired request nobody followed up for QUEUE_FOLLOW_UP_DAYS from its creation, then lets it go', async () => {
    await insert(
      row({ verificationId: 'failed-29', status: 'failed', createdAt: at(-29 * DAY) }),
      row({ verificationId: 'expired-29', status: 'expired', createdAt: at(-29 * DAY) }),
      row({ verificationId: 'failed-31', status: 'failed', createdAt: at(-31 * DAY) }),
      row({ verificationId: 'expired-31', status: 'expired', createdAt: at(-31 * DAY) }),
    );
    expect(await reasonsOf()).toEqual({ 'failed-29': 'failed', 'expired-29': 'expired' });
    const longer = await listQueue('all', { ...context, followUpDays: 40 });
    expect(longer.counts).toMatchObject({ failed: 2, expired: 2 });
    expect((await listQueue('all', { ...context, followUpDays: 7 })).total).toBe(0);
  });
});
