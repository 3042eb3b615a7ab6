// A request's history on a real database (PGlite here, PostgreSQL in the postgres project):
// built from the register row, the audit trail and the webhook receipts, oldest first; staff by
// their current name, a removed account without one; nothing of any other request; never a
// contact detail; and bounded, saying when older entries were left out.
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, nameReviews, verificationNotes, verificationRequests, webhookReceipts } from '@/lib/db/schema';
import { ADA, at, insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { FOLD_VIEWS_WITHIN_MS, getVerificationTimeline, TIMELINE_LIMIT, type TimelineEntry } from './timeline.server';

const ID = 'timeline-1';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** Further apart than FOLD_VIEWS_WITHIN_MS: views this far apart are lines of their own. */
const APART = 11 * MINUTE;

setUpRegisterDatabase();

beforeEach(async () => {
  const db = await getDb();
  await db.delete(auditEntries);
  await db.delete(webhookReceipts);
});

type AuditInsert = typeof auditEntries.$inferInsert;
async function audit(...entries: Partial<AuditInsert>[]) {
  await (await getDb())
    .insert(auditEntries)
    .values(entries.map((entry) => ({ action: 'verification.viewed', targetType: 'verification', targetId: ID, at: at(0), ...entry })));
}

async function receipt(webhookId: string, eventType: string, receivedAt: Date, verificationId = ID) {
  await (await getDb()).insert(webhookReceipts).values({ webhookId, eventType, verificationId, receivedAt });
}

/** A created request, as the create action leaves it: the register row and its audit entry. */
async function created(overrides: Partial<Parameters<typeof row>[0]> = {}) {
  await insert(
    row({
      verificationId: ID,
      name: 'Élodie Martin',
      link: 'https://svc.example/v/secret-token',
      language: 'fr',
      shareableLink: false,
      emailNotification: true,
      smsNotification: true,
      createdBy: ADA,
      createdAt: at(0),
      ...overrides,
    }),
  );
  await audit({ action: 'verification.created', actorId: ADA, at: at(0) });
}

const kinds = (entries: TimelineEntry[]) => entries.map((entry) => entry.kind);

describe('getVerificationTimeline', () => {
  it('lists creation, views, link copies, status changes and review decisions from every source, oldest first', async () => {
    await created();
    // Written out of order: the timeline orders them.
    await audit(
      { action: 'verification.reviewed', actorId: OTTO, at: at(40 * MINUTE), details: { decision: 'same_person' } },
      { action: 'verification.viewed', actorId: OTTO, at: at(5 * MINUTE) },
      { action: 'link.copied', actorId: ADA, at: at(2 * MINUTE) },
      { action: 'verification.status_changed', actorId: null, at: at(30 * MINUTE), details: { status: 'completed', previous: 'pending' } },
    );
    // The notice that brought the completion (same transaction, same instant), and one that changed nothing.
    await receipt('msg-completed', 'verification.completed', at(30 * MINUTE));
    await receipt('msg-created', 'verification.created', at(3 * SECOND));
    await (await getDb()).insert(nameReviews).values({
      verificationId: ID,
      decision: 'same_person',
      note: 'Married name, checked by phone',
      decidedBy: OTTO,
      decidedAt: at(40 * MINUTE + 20),
    });

    const { entries, truncated } = await getVerificationTimeline(ID);

    expect(truncated).toBe(false);
    expect(kinds(entries)).toEqual(['created', 'service_notice', 'link_copied', 'viewed', 'status_changed', 'reviewed']);
    expect(entries.map((entry) => entry.at.getTime())).toEqual(
      [0, 3 * SECOND, 2 * MINUTE, 5 * MINUTE, 30 * MINUTE, 40 * MINUTE].map((offset) => at(offset).getTime()),
    );
    expect(entries[0]).toMatchObject({
      kind: 'created',
      inAuditTrail: true,
      staff: { id: ADA, name: 'Ada Admin' },
      channels: { shareableLink: false, emailNotification: true, smsNotification: true },
      language: 'fr',
    });
    expect(entries[1]).toMatchObject({ kind: 'service_notice', eventType: 'verification.created', inAuditTrail: false });
    expect(entries[2]).toMatchObject({ staff: { id: ADA, name: 'Ada Admin' }, inAuditTrail: true });
    expect(entries[3]).toMatchObject({ staff: { id: OTTO, name: 'Otto Operator' } });
    expect(entries[4]).toMatchObject({ kind: 'status_changed', status: 'completed', previous: 'pending', viaWebhook: true });
    // The stored decision is the audited one: listed once.
    expect(entries[5]).toMatchObject({ kind: 'reviewed', decision: 'same_person', previous: null, inAuditTrail: true });
  });

  it('says a status change came from reading the record when no notice brought it', async () => {
    await created();
    await audit({ action: 'verification.status_changed', at: at(MINUTE), details: { status: 'expired', previous: 'pending' } });
    await receipt('msg-late', 'verification.expired', at(MINUTE + 1));

    const { entries } = await getVerificationTimeline(ID);

    expect(kinds(entries)).toEqual(['created', 'status_changed', 'service_notice']);
    expect(entries[1]).toMatchObject({ viaWebhook: false, status: 'expired' });
  });

  it('shows a removed account without a name, and the stored decision once its audit entries are gone', async () => {
    await created({ createdBy: null });
    await audit({ action: 'verification.viewed', actorId: 'staff-removed', at: at(MINUTE) });
    await (await getDb()).insert(nameReviews).values({
      verificationId: ID,
      decision: 'different_person',
      note: 'Other birth date',
      decidedBy: OTTO,
      decidedAt: at(2 * MINUTE),
    });

    const { entries } = await getVerificationTimeline(ID);

    expect(kinds(entries)).toEqual(['created', 'viewed', 'reviewed']);
    // The register forgot its creator when the account went; the audit trail still has the id.
    expect(entries[0]).toMatchObject({ staff: { id: ADA, name: 'Ada Admin' } });
    expect(entries[1]).toMatchObject({ staff: { id: 'staff-removed', name: null } });
    expect(entries[2]).toMatchObject({ decision: 'different_person', staff: { id: OTTO, name: 'Otto Operator' }, inAuditTrail: false });
  });

  it('holds no contact detail, name, link or review note in any entry', async () => {
    await created();
    await audit({ action: 'link.copied', actorId: OTTO, at: at(MINUTE) });
    await (await getDb())
      .insert(nameReviews)
      .values({ verificationId: ID, decision: 'same_person', note: 'Married name', decidedBy: OTTO });

    const serialized = JSON.stringify(await getVerificationTimeline(ID));

    for (const secret of ['ada@example.com', 'otto@example.com', 'Élodie', 'Martin', 'svc.example', 'secret-token', 'Married name']) {
      expect(serialized).not.toContain(secret);
    }
    expect(serialized).toContain('Otto Operator');
  });

  it('never mixes in another request’s entries, nor a staff account that shares the id', async () => {
    await created();
    await insert(row({ verificationId: `${ID}0` }));
    await audit(
      { action: 'verification.viewed', actorId: OTTO, targetId: `${ID}0`, at: at(MINUTE) },
      { action: 'verification.viewed', actorId: OTTO, targetId: ID.toUpperCase(), at: at(MINUTE) },
      { action: 'staff.disabled', actorId: OTTO, targetType: 'staff', targetId: ID, at: at(MINUTE) },
    );
    await receipt('msg-other', 'verification.completed', at(MINUTE), `${ID}0`);

    const { entries } = await getVerificationTimeline(ID);

    expect(kinds(entries)).toEqual(['created']);
  });

  it('keeps the creation and the latest entries within the bound, and says older ones were left out', async () => {
    await created();
    // Views further apart than the fold, so that each is a line of its own.
    const views = Array.from({ length: TIMELINE_LIMIT + 5 }, (_, index) => ({ actorId: OTTO, at: at((index + 1) * APART) }));
    await audit(...views);

    const { entries, truncated } = await getVerificationTimeline(ID);

    expect(truncated).toBe(true);
    expect(entries).toHaveLength(TIMELINE_LIMIT);
    expect(entries[0]?.kind).toBe('created');
    expect(entries[1]?.at).toEqual(at(7 * APART));
    expect(entries.at(-1)?.at).toEqual(at((TIMELINE_LIMIT + 5) * APART));
  });

  it('is not cut when everything fits', async () => {
    await created();
    await audit(...Array.from({ length: TIMELINE_LIMIT - 2 }, (_, index) => ({ actorId: OTTO, at: at((index + 1) * APART) })));

    const { entries, truncated } = await getVerificationTimeline(ID);

    // The creation's audit entry is told by the register row: one entry, not two.
    expect(entries).toHaveLength(TIMELINE_LIMIT - 1);
    expect(truncated).toBe(false);
  });

  it('tells a request the register does not hold from its audit entries alone', async () => {
    await audit(
      { action: 'verification.created', actorId: ADA, at: at(0) },
      { action: 'verification.viewed', actorId: OTTO, at: at(MINUTE) },
    );

    const { entries } = await getVerificationTimeline(ID);

    expect(kinds(entries)).toEqual(['created', 'viewed']);
    expect(entries[0]).toMatchObject({ staff: { id: ADA, name: 'Ada Admin' }, channels: null, language: null, inAuditTrail: true });
  });

  it('folds one staff member’s views within ten minutes of the first into one line, and no one else’s', async () => {
    await created();
    await audit(
      // Otto four times between 10 and 17 minutes: one line.
      { actorId: OTTO, at: at(10 * MINUTE) },
      { actorId: OTTO, at: at(12 * MINUTE) },
      { actorId: OTTO, at: at(15 * MINUTE) },
      { actorId: OTTO, at: at(17 * MINUTE) },
      // Just past ten minutes after that line's first: a line of its own.
      { actorId: OTTO, at: at(10 * MINUTE + FOLD_VIEWS_WITHIN_MS + SECOND) },
      // Ada's view ends Otto's line; his view after hers starts a new one.
      { actorId: ADA, at: at(30 * MINUTE) },
      { actorId: OTTO, at: at(31 * MINUTE) },
      // Views without an actor are never taken for one person's.
      { actorId: null, at: at(50 * MINUTE) },
      { actorId: null, at: at(51 * MINUTE) },
    );

    const { entries } = await getVerificationTimeline(ID);

    expect(
      entries.map((entry) => (entry.kind === 'viewed' ? [entry.staff?.id ?? null, entry.count, entry.at, entry.until] : entry.kind)),
    ).toEqual([
      'created',
      [OTTO, 4, at(10 * MINUTE), at(17 * MINUTE)],
      [OTTO, 1, at(20 * MINUTE + SECOND), at(20 * MINUTE + SECOND)],
      [ADA, 1, at(30 * MINUTE), at(30 * MINUTE)],
      [OTTO, 1, at(31 * MINUTE), at(31 * MINUTE)],
      [null, 1, at(50 * MINUTE), at(50 * MINUTE)],
      [null, 1, at(51 * MINUTE), at(51 * MINUTE)],
    ]);
  });

  it('folds notices that changed nothing, one after another, into one line; a change between them ends it', async () => {
    await created();
    await audit({ action: 'verification.status_changed', at: at(20 * MINUTE), details: { status: 'completed', previous: 'pending' } });
    await receipt('msg-1', 'verification.created', at(SECOND));
    await receipt('msg-2', 'verification.created', at(2 * MINUTE));
    await receipt('msg-3', 'verification.created', at(9 * MINUTE));
    // The notice that brought the completion (same instant as the change): not noise.
    await receipt('msg-4', 'verification.completed', at(20 * MINUTE));
    // Repeats of it an hour apart, which changed nothing.
    await receipt('msg-5', 'verification.completed', at(80 * MINUTE));
    await receipt('msg-6', 'verification.completed', at(140 * MINUTE));

    const { entries } = await getVerificationTimeline(ID);

    expect(kinds(entries)).toEqual(['created', 'service_notice', 'status_changed', 'service_notice']);
    expect(entries[1]).toMatchObject({ count: 3, at: at(SECOND), until: at(9 * MINUTE), eventType: 'verification.created' });
    expect(entries[2]).toMatchObject({ viaWebhook: true });
    expect(entries[3]).toMatchObject({ count: 2, at: at(80 * MINUTE), until: at(140 * MINUTE) });
  });

  it('shows the failure reason the register keeps on the failed status line only, and none when it has none', async () => {
    await created({ status: 'failed', failureReason: 'document_expired' });
    await audit(
      { action: 'verification.status_changed', at: at(MINUTE), details: { status: 'failed', previous: 'pending' } },
      { action: 'verification.status_changed', at: at(2 * MINUTE), details: { status: 'expired', previous: 'failed' } },
    );

    const { entries } = await getVerificationTimeline(ID);

    expect(entries.filter((entry) => entry.kind === 'status_changed').map((entry) => [entry.status, entry.failureReason])).toEqual([
      ['failed', 'document_expired'],
      ['expired', null],
    ]);

    await (await getDb()).delete(auditEntries);
    await (await getDb()).delete(verificationRequests);
    await created({ status: 'failed', failureReason: null });
    await audit({ action: 'verification.status_changed', at: at(MINUTE), details: { status: 'failed', previous: 'pending' } });
    const again = await getVerificationTimeline(ID);
    expect(again.entries.find((entry) => entry.kind === 'status_changed')).toMatchObject({ status: 'failed', failureReason: null });
  });

  it('lists each note as an entry of its own, author and time, a correction with the time of the note it corrects, never the text', async () => {
    await created();
    const db = await getDb();
    const [first] = await db
      .insert(verificationNotes)
      .values({ verificationId: ID, authorId: OTTO, text: 'Called Élodie, she retries tomorrow', createdAt: at(5 * MINUTE) })
      .returning();
    const [correction] = await db
      .insert(verificationNotes)
      .values({ verificationId: ID, authorId: ADA, text: 'Not tomorrow: on Monday', correctsNoteId: first!.id, createdAt: at(6 * MINUTE) })
      .returning();
    await audit(
      { action: 'verification.note_added', actorId: OTTO, at: at(5 * MINUTE), details: { noteId: first!.id } },
      {
        action: 'verification.note_added',
        actorId: ADA,
        at: at(6 * MINUTE),
        details: { noteId: correction!.id, correctsNoteId: first!.id },
      },
      // A note no longer kept (its id unknown here): still told, from its audit entry.
      { action: 'verification.note_added', actorId: OTTO, at: at(7 * MINUTE), details: { noteId: '00000000-0000-4000-8000-000000000000' } },
    );

    const timeline = await getVerificationTimeline(ID);

    expect(kinds(timeline.entries)).toEqual(['created', 'note_added', 'note_added', 'note_added']);
    expect(timeline.entries[1]).toMatchObject({
      staff: { id: OTTO, name: 'Otto Operator' },
      noteId: first!.id,
      corrects: null,
      inAuditTrail: true,
    });
    expect(timeline.entries[2]).toMatchObject({
      staff: { id: ADA },
      noteId: correction!.id,
      corrects: { at: at(5 * MINUTE) },
      at: at(6 * MINUTE),
    });
    expect(timeline.entries[3]).toMatchObject({ staff: { id: OTTO }, noteId: null, corrects: null, inAuditTrail: true });
    const serialized = JSON.stringify(timeline);
    for (const secret of ['Called', 'Élodie', 'tomorrow', 'Monday']) expect(serialized).not.toContain(secret);
  });

  it('tells who took the request, gave it, took it over, handed it back, and why it went back when an account changed, in order', async () => {
    await created();
    const GONE = 'staff-gone';
    // Ids only, as the assignment room and the staff accounts write them; written out of order.
    await audit(
      { action: 'verification.unassigned', actorId: ADA, at: at(6 * MINUTE), details: { previous: GONE, reason: 'staff_role_changed' } },
      { action: 'verification.assigned', actorId: OTTO, at: at(MINUTE), details: { assignee: OTTO } },
      { action: 'verification.unassigned', actorId: OTTO, at: at(2 * MINUTE), details: { previous: OTTO } },
      { action: 'verification.assigned', actorId: ADA, at: at(3 * MINUTE), details: { assignee: OTTO } },
      { action: 'verification.assigned', actorId: ADA, at: at(4 * MINUTE), details: { assignee: ADA, previous: OTTO } },
      { action: 'verification.assigned', actorId: ADA, at: at(5 * MINUTE), details: { assignee: GONE, previous: ADA } },
      { action: 'verification.unassigned', actorId: null, at: at(7 * MINUTE) },
    );

    const { entries } = await getVerificationTimeline(ID);

    expect(kinds(entries)).toEqual(['created', 'assigned', 'unassigned', 'assigned', 'assigned', 'assigned', 'unassigned', 'unassigned']);
    const ada = { id: ADA, name: 'Ada Admin' };
    const otto = { id: OTTO, name: 'Otto Operator' };
    const gone = { id: GONE, name: null };
    expect(entries.slice(1)).toMatchObject([
      { kind: 'assigned', staff: otto, assignee: otto, previous: null, inAuditTrail: true },
      { kind: 'unassigned', staff: otto, previous: otto, reason: null },
      { kind: 'assigned', staff: ada, assignee: otto, previous: null },
      { kind: 'assigned', staff: ada, assignee: ada, previous: otto },
      { kind: 'assigned', staff: ada, assignee: gone, previous: ada },
      { kind: 'unassigned', staff: ada, previous: gone, reason: 'staff_role_changed' },
      { kind: 'unassigned', staff: null, previous: null, reason: null },
    ]);
  });
});
