// The register's "Needs review" view and its count, on a real database (PGlite, and PostgreSQL
// in the postgres project): completed requests whose names differ and on which nobody has
// decided yet; a decision takes a request out of the view.
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { nameReviews } from '@/lib/db/schema';
import { parseRegisterFilter } from '@/lib/verifications/register/filter';
import { countNeedsReview, listRegister } from '@/lib/verifications/register/queries.server';
import { ADA, at, HOUR, insert, NOW, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';

setUpRegisterDatabase();

const reviewIds = async (filter: Parameters<typeof listRegister>[0] = {}) =>
  (await listRegister({ ...filter, view: 'review' }, { now: NOW, staffId: ADA })).map((entry) => entry.verificationId);

async function seed() {
  await insert(
    row({ verificationId: 'differs-old', status: 'completed', identifiedName: 'John Smith', nameMismatch: true, createdAt: at(-3 * HOUR) }),
    row({
      verificationId: 'differs-new',
      status: 'completed',
      identifiedName: 'Jane Roe',
      nameMismatch: true,
      createdAt: at(-HOUR),
      createdBy: OTTO,
      name: 'Jane Doe',
    }),
    row({ verificationId: 'matches', status: 'completed', identifiedName: 'Person', nameMismatch: false }),
    // Not computed yet (completed before the register kept the flag): not listed until it is.
    row({ verificationId: 'unknown', status: 'completed', identifiedName: 'Other', nameMismatch: null }),
    row({ verificationId: 'pending', status: 'pending' }),
    row({ verificationId: 'failed', status: 'failed', nameMismatch: null }),
    row({ verificationId: 'decided', status: 'completed', identifiedName: 'Someone', nameMismatch: true }),
  );
  await (await getDb())
    .insert(nameReviews)
    .values({ verificationId: 'decided', decision: 'same_person', note: 'Checked.', decidedBy: ADA });
}

describe('the "Needs review" view', () => {
  it('is a view the query string can ask for', () => {
    expect(parseRegisterFilter({ view: 'review' })).toEqual({ filter: { view: 'review' }, problems: [] });
  });

  it('lists completed requests whose names differ and that nobody has decided on, newest first', async () => {
    await seed();
    expect(await reviewIds()).toEqual(['differs-new', 'differs-old']);
    expect(await countNeedsReview({}, { now: NOW })).toBe(2);
  });

  it('drops a request once a decision is recorded', async () => {
    await seed();
    await (await getDb())
      .insert(nameReviews)
      .values({ verificationId: 'differs-new', decision: 'different_person', note: 'No.', decidedBy: OTTO });
    expect(await reviewIds()).toEqual(['differs-old']);
    expect(await countNeedsReview({}, { now: NOW })).toBe(1);
  });

  it('applies the other filters, in the list and the count', async () => {
    await seed();
    expect(await reviewIds({ q: 'jane' })).toEqual(['differs-new']);
    expect(await countNeedsReview({ q: 'jane' }, { now: NOW })).toBe(1);
    expect(await countNeedsReview({ q: 'differs-' }, { now: NOW })).toBe(2);
    expect(await reviewIds({ createdBy: OTTO })).toEqual(['differs-new']);
    expect(await countNeedsReview({ createdBy: 'mine' }, { now: NOW, staffId: OTTO })).toBe(1);
    expect(await reviewIds({ status: 'pending' })).toEqual([]);
    expect(await countNeedsReview({ status: 'pending' }, { now: NOW })).toBe(0);
    expect(await countNeedsReview({ status: 'completed' }, { now: NOW })).toBe(2);
  });
});

describe('the register list after a decision', () => {
  it('carries each request’s decision once, and none where nobody has decided', async () => {
    await seed();
    await (await getDb())
      .insert(nameReviews)
      .values({ verificationId: 'differs-old', decision: 'different_person', note: 'No.', decidedBy: OTTO });
    const entries = await listRegister({}, { now: NOW, staffId: ADA });
    const decisions = Object.fromEntries(entries.map((entry) => [entry.verificationId, entry.reviewDecision]));
    // One row per request (the join never repeats one), with the decision where there is one.
    expect(entries).toHaveLength(7);
    expect(decisions).toMatchObject({
      decided: 'same_person',
      'differs-old': 'different_person',
      'differs-new': null,
      matches: null,
      pending: null,
    });
  });
});
