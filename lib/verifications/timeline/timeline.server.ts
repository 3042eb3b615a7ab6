// The history of one verification request, for its detail page: when it was created and by
// whom, each status change (a failure with the reason the service gave) and notice the service
// sent, who viewed it or copied its link, the name review decisions, the internal notes and who
// took it, gave it to whom or handed it back (and why, when a change to an account did). It is
// assembled from what the dashboard keeps anyway — the register row (with its latest name
// review), its notes, the audit trail and the webhook receipts — and keeps nothing of its own.
// Entries hold ids, codes and times only, so no entry can carry an e-mail address, a phone
// number or what a note says (the page's Notes section shows that, in one place); staff appear
// by the name their account has now.
//
// Without noise: notices from the service that changed nothing, one after the other, are one
// line; so are one staff member's views of the request within FOLD_VIEWS_WITHIN_MS of the first.
//
// Bounded: one query per source, each reading at most TIMELINE_LIMIT + 1 rows (the extra row
// says that there are more), so a request viewed thousands of times costs the page the same.
import 'server-only';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isAuditAction } from '@/lib/audit/audit-labels';
import { getDb } from '@/lib/db';
import { auditEntries, nameReviews, staffUsers, verificationNotes, verificationRequests, webhookReceipts } from '@/lib/db/schema';
import { logger } from '@/lib/platform/log';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import type { RequestChannels } from '@/lib/verifications/channels';
import type { NameReviewDecision } from '@/lib/verifications/review/labels';

/** At most this many entries; older ones are in the audit trail. */
export const TIMELINE_LIMIT = 200;

/** Views by one staff member within this time of the first are one line ("viewed 4 times between …"). */
export const FOLD_VIEWS_WITHIN_MS = 10 * 60 * 1000;

/** Who did it: a staff member by the name their account has now, or null once the account is gone. */
export type TimelineStaff = { id: string; name: string | null };

type Common = {
  /** Unique within one timeline, stable across renders (a React key). */
  key: string;
  at: Date;
  /** Whether the audit trail has this entry (then the audit trail filtered by this id shows it). */
  inAuditTrail: boolean;
};

export type TimelineEntry = Common &
  (
    | { kind: 'created'; staff: TimelineStaff | null; channels: RequestChannels | null; language: string | null }
    /**
     * The register learnt a new status; `viaWebhook` when a notice from the service brought it.
     * `failureReason`: for a failure, the reason the service gave, as the register keeps it.
     */
    | { kind: 'status_changed'; status: string; previous: string | null; viaWebhook: boolean; failureReason: string | null }
    /**
     * Notices from the service that changed no status here (e.g. "created", or a repeat): `count`
     * of them in a row, the first at `at`, the last at `until`; `eventType` is the first one's.
     */
    | { kind: 'service_notice'; eventType: string; count: number; until: Date }
    /** `count` views by one staff member, the first at `at`, the last at `until`. */
    | { kind: 'viewed'; staff: TimelineStaff | null; count: number; until: Date }
    | { kind: 'link_copied'; staff: TimelineStaff | null }
    | { kind: 'reviewed'; staff: TimelineStaff | null; decision: NameReviewDecision | null; previous: NameReviewDecision | null }
    /**
     * An internal note (never its text). `noteId` while the note is kept (the Notes section shows
     * it); `corrects` for a correction, with when the corrected note was written if it is known.
     */
    | { kind: 'note_added'; staff: TimelineStaff | null; noteId: string | null; corrects: { at: Date | null } | null }
    /**
     * Someone works on it now: `staff` acted, `assignee` has it (the same person for "took it"),
     * `previous` had it until then (null: nobody did).
     */
    | { kind: 'assigned'; staff: TimelineStaff | null; assignee: TimelineStaff | null; previous: TimelineStaff | null }
    /**
     * It went back to unassigned: `previous` had it. `reason` when a change to their account did
     * it (then `staff` is who changed the account, or null for a command-line change).
     */
    | { kind: 'unassigned'; staff: TimelineStaff | null; previous: TimelineStaff | null; reason: UnassignedReason | null }
    /** Any other audited action on this request (e.g. removed from the register), by its code. */
    | { kind: 'other'; staff: TimelineStaff | null; action: string }
  );

export type Timeline = {
  /** Oldest first. */
  entries: TimelineEntry[];
  /** True when older entries were left out (they are in the audit trail). */
  truncated: boolean;
};

/** Why a request went back to unassigned without anyone handing it back (lib/staff/staff-accounts.ts). */
export type UnassignedReason = 'staff_disabled' | 'staff_role_changed';

type AuditRow = { id: string; at: Date; actorId: string | null; action: string; details: Record<string, unknown> | null };
type ReceiptRow = { webhookId: string; eventType: string; receivedAt: Date };

const correctedNotes = alias(verificationNotes, 'corrected_notes');

/** The timeline of `verificationId`, from the register, the audit trail and the webhook receipts. */
export async function getVerificationTimeline(verificationId: string): Promise<Timeline> {
  const id = canonicalVerificationId(verificationId);
  const db = await getDb();
  const [registerRows, auditRows, receiptRows, noteRows] = await Promise.all([
    db
      .select({
        createdAt: verificationRequests.createdAt,
        createdBy: verificationRequests.createdBy,
        language: verificationRequests.language,
        shareableLink: verificationRequests.shareableLink,
        emailNotification: verificationRequests.emailNotification,
        smsNotification: verificationRequests.smsNotification,
        failureReason: verificationRequests.failureReason,
        reviewDecision: nameReviews.decision,
        reviewedBy: nameReviews.decidedBy,
        reviewedAt: nameReviews.decidedAt,
      })
      .from(verificationRequests)
      .leftJoin(nameReviews, eq(nameReviews.verificationId, verificationRequests.verificationId))
      .where(eq(verificationRequests.verificationId, id)),
    db
      .select({
        id: auditEntries.id,
        at: auditEntries.at,
        actorId: auditEntries.actorId,
        action: auditEntries.action,
        details: auditEntries.details,
      })
      .from(auditEntries)
      .where(and(eq(auditEntries.targetType, 'verification'), eq(auditEntries.targetId, id)))
      .orderBy(desc(auditEntries.at), desc(auditEntries.id))
      .limit(TIMELINE_LIMIT + 1),
    db
      .select({ webhookId: webhookReceipts.webhookId, eventType: webhookReceipts.eventType, receivedAt: webhookReceipts.receivedAt })
      .from(webhookReceipts)
      .where(eq(webhookReceipts.verificationId, id))
      .orderBy(desc(webhookReceipts.receivedAt), desc(webhookReceipts.webhookId))
      .limit(TIMELINE_LIMIT + 1),
    // The notes' ids, authors and times; their text stays out of the history.
    db
      .select({
        id: verificationNotes.id,
        authorId: verificationNotes.authorId,
        createdAt: verificationNotes.createdAt,
        correctsId: verificationNotes.correctsNoteId,
        correctsAt: correctedNotes.createdAt,
      })
      .from(verificationNotes)
      .leftJoin(correctedNotes, eq(correctedNotes.id, verificationNotes.correctsNoteId))
      .where(eq(verificationNotes.verificationId, id))
      .orderBy(desc(verificationNotes.createdAt), desc(verificationNotes.id))
      .limit(TIMELINE_LIMIT + 1),
  ]);
  const register = registerRows[0];
  const audit: AuditRow[] = auditRows.slice(0, TIMELINE_LIMIT);
  const receipts: ReceiptRow[] = receiptRows.slice(0, TIMELINE_LIMIT);
  const notes = noteRows.slice(0, TIMELINE_LIMIT);

  const staffIds = new Set<string>();
  if (register?.createdBy) staffIds.add(register.createdBy);
  if (register?.reviewedBy) staffIds.add(register.reviewedBy);
  for (const row of audit) {
    if (row.actorId) staffIds.add(row.actorId);
    // The audit trail names an assignment's people by id only; their names are read here.
    for (const id of assignmentStaffIds(row)) staffIds.add(id);
  }
  for (const note of notes) if (note.authorId) staffIds.add(note.authorId);
  const names = await staffNames([...staffIds]);
  const staff = (staffId: string | null): TimelineStaff | null => (staffId ? { id: staffId, name: names.get(staffId) ?? null } : null);

  const entries: TimelineEntry[] = [];
  const createdAudit = audit.find((row) => row.action === 'verification.created');
  if (register) {
    // The register row says how it was sent; its audit entry (if still kept) links there.
    entries.push({
      kind: 'created',
      key: 'created',
      at: register.createdAt,
      inAuditTrail: createdAudit !== undefined,
      staff: staff(register.createdBy ?? createdAudit?.actorId ?? null),
      channels: {
        shareableLink: register.shareableLink,
        emailNotification: register.emailNotification,
        smsNotification: register.smsNotification,
      },
      language: register.language,
    });
  }

  // A webhook's receipt and the status change it caused are written in one transaction, so
  // both carry its start time: equal instants pair them.
  const statusChangeTimes = new Set(audit.filter((row) => row.action === 'verification.status_changed').map((row) => row.at.getTime()));
  const receiptTimes = new Set(receipts.map((receipt) => receipt.receivedAt.getTime()));
  // A note is told from its row, which is kept as long as the request; its audit entry (kept
  // for the audit retention) only links there. An audit entry whose note is not read here (gone
  // with its request, or beyond the bound) still says that a note was added.
  const notesRead = new Set(notes.map((note) => note.id));
  const auditedNotes = new Set(audit.filter((row) => row.action === 'verification.note_added').map((row) => row.details?.noteId));
  // Null-safe: rows refreshed before the register kept the reason have none.
  const failureReason = register?.failureReason?.trim() || null;
  for (const row of audit) {
    if (row.action === 'verification.note_added' && notesRead.has(String(row.details?.noteId))) continue;
    const entry = auditEntry(row, staff, receiptTimes, { inRegister: register !== undefined, failureReason });
    if (entry) entries.push(entry);
  }
  for (const note of notes) {
    entries.push({
      kind: 'note_added',
      key: `note:${note.id}`,
      at: note.createdAt,
      inAuditTrail: auditedNotes.has(note.id),
      staff: staff(note.authorId),
      noteId: note.id,
      corrects: note.correctsId ? { at: note.correctsAt } : null,
    });
  }
  for (const receipt of receipts) {
    if (statusChangeTimes.has(receipt.receivedAt.getTime())) continue;
    entries.push({
      kind: 'service_notice',
      key: `webhook:${receipt.webhookId}`,
      at: receipt.receivedAt,
      inAuditTrail: false,
      eventType: receipt.eventType,
      count: 1,
      until: receipt.receivedAt,
    });
  }

  // The stored decision outlives its audit entries (purged after the audit retention, or
  // beyond the bound): shown from the register unless the latest audited decision is it.
  if (register?.reviewDecision && register.reviewedAt) {
    const lastAudited = audit.find((row) => row.action === 'verification.reviewed');
    if (lastAudited?.details?.decision !== register.reviewDecision) {
      entries.push({
        kind: 'reviewed',
        key: 'review',
        at: register.reviewedAt,
        inAuditTrail: false,
        staff: staff(register.reviewedBy),
        decision: register.reviewDecision,
        previous: null,
      });
    }
  }

  entries.sort(byTime);
  const folded = foldNoise(entries);
  const overBound =
    auditRows.length > TIMELINE_LIMIT ||
    receiptRows.length > TIMELINE_LIMIT ||
    noteRows.length > TIMELINE_LIMIT ||
    folded.length > TIMELINE_LIMIT;
  if (folded.length <= TIMELINE_LIMIT) return { entries: folded, truncated: overBound };
  // The latest entries stay, and the creation that anchors them.
  const created = folded.find((entry) => entry.kind === 'created');
  const others = folded.filter((entry) => entry !== created);
  const latest = others.slice(others.length - (created ? TIMELINE_LIMIT - 1 : TIMELINE_LIMIT));
  return { entries: created ? [created, ...latest] : latest, truncated: true };
}

/**
 * Folds the noise of a sorted timeline: a notice that changed nothing right after another joins
 * its line, and a view joins the line of the same staff member's view just before it while
 * within FOLD_VIEWS_WITHIN_MS of that line's first. Anything else in between ends a line, so the
 * order of what happened stays readable.
 */
function foldNoise(entries: TimelineEntry[]): TimelineEntry[] {
  const folded: TimelineEntry[] = [];
  for (const entry of entries) {
    const line = folded.at(-1);
    if (line?.kind === 'service_notice' && entry.kind === 'service_notice') {
      folded[folded.length - 1] = { ...line, count: line.count + entry.count, until: entry.until };
      continue;
    }
    if (
      line?.kind === 'viewed' &&
      entry.kind === 'viewed' &&
      line.staff !== null &&
      line.staff.id === entry.staff?.id &&
      entry.at.getTime() - line.at.getTime() <= FOLD_VIEWS_WITHIN_MS
    ) {
      folded[folded.length - 1] = { ...line, count: line.count + entry.count, until: entry.until };
      continue;
    }
    folded.push(entry);
  }
  return folded;
}

function auditEntry(
  row: AuditRow,
  staff: (id: string | null) => TimelineStaff | null,
  receiptTimes: Set<number>,
  { inRegister, failureReason }: { inRegister: boolean; failureReason: string | null },
): TimelineEntry | null {
  const common = { key: `audit:${row.id}`, at: row.at, inAuditTrail: true };
  const detail = (name: string) => (typeof row.details?.[name] === 'string' ? (row.details[name] as string) : null);
  switch (row.action) {
    case 'verification.created':
      // Told by the register row, which also says how it was sent.
      return inRegister ? null : { ...common, kind: 'created', staff: staff(row.actorId), channels: null, language: null };
    case 'verification.status_changed': {
      const status = detail('status') ?? 'unknown';
      return {
        ...common,
        kind: 'status_changed',
        status,
        previous: detail('previous'),
        viaWebhook: receiptTimes.has(row.at.getTime()),
        // A request fails once, so the register's reason is this failure's.
        failureReason: status === 'failed' ? failureReason : null,
      };
    }
    case 'verification.viewed':
      return { ...common, kind: 'viewed', staff: staff(row.actorId), count: 1, until: row.at };
    case 'verification.note_added':
      return {
        ...common,
        kind: 'note_added',
        staff: staff(row.actorId),
        noteId: null,
        corrects: detail('correctsNoteId') ? { at: null } : null,
      };
    case 'link.copied':
      return { ...common, kind: 'link_copied', staff: staff(row.actorId) };
    case 'verification.assigned':
      return {
        ...common,
        kind: 'assigned',
        staff: staff(row.actorId),
        assignee: staff(detail('assignee')),
        previous: staff(detail('previous')),
      };
    case 'verification.unassigned':
      return {
        ...common,
        kind: 'unassigned',
        staff: staff(row.actorId),
        previous: staff(detail('previous')),
        reason: asUnassignedReason(detail('reason')),
      };
    case 'verification.reviewed':
      return {
        ...common,
        kind: 'reviewed',
        staff: staff(row.actorId),
        decision: asDecision(detail('decision')),
        previous: asDecision(detail('previous')),
      };
    default:
      return { ...common, kind: 'other', staff: staff(row.actorId), action: isAuditAction(row.action) ? row.action : 'unknown' };
  }
}

function asUnassignedReason(value: string | null): UnassignedReason | null {
  return value === 'staff_disabled' || value === 'staff_role_changed' ? value : null;
}

/** The staff ids an assignment entry's details hold: who has it now and who had it. */
function assignmentStaffIds(row: AuditRow): string[] {
  if (row.action !== 'verification.assigned' && row.action !== 'verification.unassigned') return [];
  return [row.details?.assignee, row.details?.previous].filter((id): id is string => typeof id === 'string');
}

function asDecision(value: string | null): NameReviewDecision | null {
  return value === 'same_person' || value === 'different_person' ? value : null;
}

// Oldest first; at one instant, the creation first (a webhook in the creating transaction's
// second would otherwise precede it), then a stable order by key.
function byTime(a: TimelineEntry, b: TimelineEntry): number {
  const time = a.at.getTime() - b.at.getTime();
  if (time !== 0) return time;
  if (a.kind === 'created' || b.kind === 'created') return a.kind === 'created' ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The current names of these staff accounts; an id with no account is absent. */
async function staffNames(ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const db = await getDb();
  const rows = await db.select({ id: staffUsers.id, name: staffUsers.name }).from(staffUsers).where(inArray(staffUsers.id, ids));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** For the detail page: the timeline, or undefined when it cannot be read (the page shows the record regardless). */
export function readTimelineForPage(verificationId: string): Promise<Timeline | undefined> {
  return getVerificationTimeline(verificationId).catch((error: unknown) => {
    logger.child({ area: 'verifications' }).error({ err: error, verificationId }, 'reading a verification’s history failed');
    return undefined;
  });
}
