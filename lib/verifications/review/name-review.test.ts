// Recording a name review, through its server action, on a real database (PGlite here, and
// PostgreSQL in the postgres project): who may, what the form must hold, when a request can be
// reviewed at all, and that a later decision replaces the earlier one with an audit entry each,
// the note never in the audit trail. The session is stood in for: outside a Next.js request
// there is no cookie to read.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DENIAL_MESSAGES } from '@/lib/auth/guards';
import type { Staff } from '@/lib/auth/session';
import { getDb } from '@/lib/db';
import { auditEntries, liveEvents, nameReviews } from '@/lib/db/schema';
import { resetEnv } from '@/lib/env';
import { purgeExpiredRegisterEntries } from '@/lib/verifications/register/retention.server';
import { ADA, at, DAY, insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { recordNameReviewAction } from './actions';
import { getNameReview, sameDecisionRule } from './name-review.server';

const session = vi.hoisted(() => ({ staff: null as Staff | null }));
vi.mock('@/lib/auth/session', () => ({
  getCurrentStaff: async () => session.staff,
  staffFromHeaders: async () => session.staff,
}));
// Outside a Next.js request there is no page cache to mark stale.
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const OPERATOR: Staff = { id: OTTO, name: 'Otto Operator', email: 'otto@example.com', role: 'operator', sessionId: 's-1' };
const ADMIN: Staff = { id: ADA, name: 'Ada Admin', email: 'ada@example.com', role: 'admin', sessionId: 's-2' };
const VIEWER: Staff = { id: 'staff-vic', name: 'Vic Viewer', email: 'vic@example.com', role: 'viewer', sessionId: 's-3' };

const ID = 'review-me';
const IDLE = { status: 'idle' as const, values: { verificationId: '', decision: '', note: '' } };

setUpRegisterDatabase();

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const submit = (fields: Partial<Record<'verificationId' | 'decision' | 'note', string>>) =>
  recordNameReviewAction(
    IDLE,
    form({ verificationId: ID, decision: 'different_person', note: 'Different birth date on the passport.', ...fields }),
  );

async function auditOf(id: string) {
  return (await getDb()).select().from(auditEntries).where(eq(auditEntries.targetId, id)).orderBy(auditEntries.at);
}

beforeEach(async () => {
  session.staff = OPERATOR;
  const db = await getDb();
  await db.delete(auditEntries);
  // Created by Otto: Ada, a colleague, may accept it as the same person (four eyes).
  await insert(
    row({
      verificationId: ID,
      name: 'Élodie Martin',
      status: 'completed',
      identifiedName: 'ÉLISE MARTIN',
      nameMismatch: true,
      createdBy: OTTO,
    }),
  );
});

describe('recordNameReviewAction', () => {
  it('records an operator’s decision with the note, who and when, and audits the decision only', async () => {
    const before = Date.now();
    const answer = await submit({ note: '  Different birth date on the passport.  ' });
    expect(answer).toMatchObject({ status: 'recorded', message: 'Decision recorded.' });

    const review = await getNameReview(ID);
    expect(review).toMatchObject({
      decision: 'different_person',
      note: 'Different birth date on the passport.',
      decidedById: OTTO,
      decidedByName: 'Otto Operator',
    });
    expect(review!.decidedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const audit = await auditOf(ID);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorId: OTTO,
      action: 'verification.reviewed',
      targetType: 'verification',
      details: { decision: 'different_person' },
    });
    expect(JSON.stringify(audit[0])).not.toContain('birth date');
  });

  it('lets a later decision replace the earlier one, each audited with the one it replaced', async () => {
    await submit({ decision: 'different_person' });
    session.staff = ADMIN;
    await submit({ decision: 'same_person', note: 'Married name; confirmed with the client.' });

    const reviews = await (await getDb()).select().from(nameReviews).where(eq(nameReviews.verificationId, ID));
    expect(reviews).toHaveLength(1);
    expect(await getNameReview(ID)).toMatchObject({
      decision: 'same_person',
      note: 'Married name; confirmed with the client.',
      decidedById: ADA,
    });
    expect((await auditOf(ID)).map((entry) => [entry.actorId, entry.details])).toEqual([
      [OTTO, { decision: 'different_person' }],
      [ADA, { decision: 'same_person', previous: 'different_person' }],
    ]);
  });

  it('tells open pages that the request changed', async () => {
    const db = await getDb();
    const [before] = await db.select({ id: liveEvents.id }).from(liveEvents).orderBy(liveEvents.id).limit(1);
    await submit({});
    const events = await db.select().from(liveEvents).where(eq(liveEvents.verificationId, ID));
    expect(events.filter((event) => !before || event.id > before.id).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a viewer, with what was typed, and records nothing', async () => {
    session.staff = VIEWER;
    expect(await submit({ note: 'I think so' })).toEqual({
      status: 'failed',
      values: { verificationId: ID, decision: 'different_person', note: 'I think so' },
      fieldErrors: {},
      ...DENIAL_MESSAGES.forbidden,
    });
    expect(await getNameReview(ID)).toBeUndefined();
    expect(await auditOf(ID)).toHaveLength(0);
  });

  it('refuses without a session', async () => {
    session.staff = null;
    expect(await submit({})).toMatchObject({ status: 'failed', ...DENIAL_MESSAGES.unauthenticated });
    expect(await getNameReview(ID)).toBeUndefined();
  });

  it('answers a missing decision and a blank or overlong note at their fields, keeping what was typed', async () => {
    const blank = await submit({ decision: '', note: '   ' });
    expect(blank).toMatchObject({
      status: 'invalid',
      values: { verificationId: ID, decision: '', note: '   ' },
      fieldErrors: {
        decision: ['Choose “Same person” or “Not the same person”.'],
        note: ['Write a short note saying why you decided this.'],
      },
    });
    const long = await submit({ decision: 'maybe', note: 'x'.repeat(501) });
    expect(long).toMatchObject({
      status: 'invalid',
      fieldErrors: { decision: ['Choose “Same person” or “Not the same person”.'], note: ['Keep the note to 500 characters or fewer.'] },
    });
    expect(await submit({ note: 'a\u0000b' })).toMatchObject({
      fieldErrors: { note: ['The note contains characters that are not text.'] },
    });
    expect(await getNameReview(ID)).toBeUndefined();
    expect(await auditOf(ID)).toHaveLength(0);
  });

  it('refuses a request that is not in the register, not completed, or whose names match, saying why', async () => {
    expect(await submit({ verificationId: 'somebody-elses' })).toMatchObject({
      status: 'failed',
      message: 'This verification was not created from this dashboard, so a decision cannot be recorded for it here.',
    });

    await insert(row({ verificationId: 'still-pending' }));
    expect(await submit({ verificationId: 'still-pending' })).toMatchObject({
      status: 'failed',
      message: 'Only a completed verification can be reviewed, and this one is pending. Reload the page to see its current state.',
    });

    await insert(
      row({
        verificationId: 'same-name',
        name: 'Elodie Martin',
        status: 'completed',
        identifiedName: 'ÉLODIE MARTIN',
        nameMismatch: false,
      }),
    );
    expect(await submit({ verificationId: 'same-name' })).toMatchObject({
      status: 'failed',
      message: 'The identified name matches the requested one, so there is nothing to review.',
    });

    expect(await (await getDb()).select().from(nameReviews)).toHaveLength(0);
    expect(await auditOf('still-pending')).toHaveLength(0);
  });

  it('reviews a completed request whose flag the register has not computed yet', async () => {
    await insert(row({ verificationId: 'older', name: 'Jane Doe', status: 'completed', identifiedName: 'John Smith', nameMismatch: null }));
    expect(await submit({ verificationId: 'older' })).toMatchObject({ status: 'recorded' });
  });

  it('goes with its register row when retention purges it (the note is kept no longer than the names)', async () => {
    await submit({});
    await purgeExpiredRegisterEntries(at(31 * DAY));
    expect(await getNameReview(ID)).toBeUndefined();
  });
});

describe('four eyes on a name mismatch (REVIEW_FOUR_EYES)', () => {
  const saved = process.env.REVIEW_FOUR_EYES;
  afterEach(() => {
    if (saved === undefined) delete process.env.REVIEW_FOUR_EYES;
    else process.env.REVIEW_FOUR_EYES = saved;
    resetEnv();
  });

  it('refuses "same person" from the request’s creator, saying a colleague decides; lets the creator record "not the same person" and a colleague "same person"', async () => {
    delete process.env.REVIEW_FOUR_EYES;
    resetEnv();
    session.staff = OPERATOR;
    expect(await submit({ decision: 'same_person', note: 'Married name.' })).toEqual({
      status: 'failed',
      values: { verificationId: ID, decision: 'same_person', note: 'Married name.' },
      fieldErrors: {},
      message:
        'You created this request, so “Same person” must be decided by a colleague (four-eyes principle). You may record “Not the same person”.',
    });
    expect(await getNameReview(ID)).toBeUndefined();
    expect(await auditOf(ID)).toHaveLength(0);

    expect(await submit({ decision: 'different_person' })).toMatchObject({ status: 'recorded' });
    session.staff = ADMIN;
    expect(await submit({ decision: 'same_person', note: 'Married name.' })).toMatchObject({ status: 'recorded' });
    expect(await getNameReview(ID)).toMatchObject({ decision: 'same_person', decidedById: ADA });
  });

  it('lets the creator accept their own request when turned off, and anyone when the creator’s account is gone', async () => {
    process.env.REVIEW_FOUR_EYES = 'off';
    resetEnv();
    expect(sameDecisionRule(OTTO, OTTO)).toBe('anyone');
    expect(await submit({ decision: 'same_person' })).toMatchObject({ status: 'recorded' });

    process.env.REVIEW_FOUR_EYES = 'on';
    resetEnv();
    await insert(row({ verificationId: 'orphan', name: 'Jane Doe', status: 'completed', identifiedName: 'John Smith', createdBy: null }));
    expect(await submit({ verificationId: 'orphan', decision: 'same_person' })).toMatchObject({ status: 'recorded' });
  });

  it('tells the page who may decide: not you, the creator; someone other than the creator; anyone', () => {
    delete process.env.REVIEW_FOUR_EYES;
    resetEnv();
    expect(sameDecisionRule(OTTO, OTTO)).toBe('not_you');
    expect(sameDecisionRule(OTTO, ADA)).toBe('not_creator');
    expect(sameDecisionRule(null, ADA)).toBe('anyone');
  });
});
