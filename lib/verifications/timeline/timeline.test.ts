// A request's history on a real database (PGlite here, PostgreSQL in the postgres project):
// built from the register row, the audit trail and the webhook receipts, oldest first; staff by
// their current name, a removed account without one; nothing of any other request; never a
// contact detail; and bounded, saying when older entries were left out.
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db';
import { auditEntries, nameReviews, webhookReceipts } from '@/lib/db/schema';
import { ADA, at, insert, OTTO, row, setUpRegisterDatabase } from '@/test/support/register';
import { getVerificationTimeline, TIMELINE_LIMIT, type TimelineEntry } from './timeline.server';

const ID = 'timeline-1';
const SECOND = 1000;
const MINUTE = 60 * SECOND;

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
    const views = Array.from({ length: TIMELINE_LIMIT + 5 }, (_, index) => ({ actorId: OTTO, at: at((index + 1) * MINUTE) }));
    await audit(...views);

    const { entries, truncated } = await getVerificationTimeline(ID);

    expect(truncated).toBe(true);
    expect(entries).toHaveLength(TIMELINE_LIMIT);
    expect(entries[0]?.kind).toBe('created');
    expect(entries[1]?.at).toEqual(at(7 * MINUTE));
    expect(entries.at(-1)?.at).toEqual(at((TIMELINE_LIMIT + 5) * MINUTE));
  });

  it('is not cut when everything fits', async () => {
    await created();
    await audit(...Array.from({ length: TIMELINE_LIMIT - 2 }, (_, index) => ({ actorId: OTTO, at: at((index + 1) * MINUTE) })));

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
});
