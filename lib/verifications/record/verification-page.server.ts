// The detail page's read: the record (readVerification) with what the page shows beside it, from
// the register, the name review, the notes and the history, and what the staff member reading it may do.
// Everything is read at once and failures are values, so the page only renders. Once the page
// has gone out, `verificationShown` leaves the view's trace and refreshes the register.
import 'server-only';
import { recordAuditUnlessRecent } from '@/lib/audit/audit';
import { can } from '@/lib/auth/roles';
import type { Staff } from '@/lib/auth/session';
import { afterResponse } from '@/lib/platform/after-response';
import { displayTimeZone } from '@/lib/time/display-zone';
import type { VerificationRecord } from '@/lib/verification-service/types';
import { getAssignee, listAssignableStaff } from '@/lib/verifications/assignment/assignment.server';
import type { RequestChannels } from '@/lib/verifications/channels';
import { readNotesForPage, type VerificationNotes } from '@/lib/verifications/notes/notes.server';
import { getRegisterEntry, type RegisterEntry } from '@/lib/verifications/register/queries.server';
import { completedNameComparison } from '@/lib/verifications/review/comparison';
import type { NameReviewDecision, ReviewSummary, SameDecisionRule } from '@/lib/verifications/review/labels';
import type { NameComparison } from '@/lib/verifications/review/name-match';
import { readNameReviewForPage, reviewSummary, sameDecisionRule } from '@/lib/verifications/review/name-review.server';
import { readTimelineForPage, type Timeline } from '@/lib/verifications/timeline/timeline.server';
import { type PurgedRequest, purgedRequestFor } from './purged.server';
import { type ReadFailure, readVerification } from './read-verification.server';

/** The problem page's kind: the service client's kind, or 'unexpected' for a failure of our own. */
export type ProblemKind = Exclude<ReadFailure['kind'], 'unknown'> | 'unexpected';

/** The register's side of the request, as the page shows it. */
export type RequestFacts = {
  createdAt: Date;
  /** The person's language, a code (en, fr, nl): the page names it. */
  language: string;
  channels: RequestChannels;
  /** The shareable link for someone who may copy it; `usable` while the person can still open it. */
  link: { url: string; usable: boolean } | null;
  /** When the register row goes (and its notes with it), ISO; null while not known. */
  keptUntil: string | null;
};

export type VerificationPageRead =
  | {
      ok: false;
      notFound: boolean;
      problem: { kind: ProblemKind; title: string; message: string; transient: boolean };
      purged?: undefined;
    }
  /** The service has purged a request the register still holds (purged.server.ts): not an error. */
  | { ok: false; notFound: false; problem?: undefined; purged: PurgedPage }
  | {
      ok: true;
      record: VerificationRecord;
      /** Undefined for a request this dashboard did not create (or has purged). */
      request: RequestFacts | undefined;
      /** The name the dashboard asked for: the register's, else the service's. */
      requestedName: string | undefined;
      nameComparison: NameComparison | null;
      reviewDecision: NameReviewDecision | null;
      review: ReviewSummary | null;
      /** Who may record "same person" (four eyes), as the reader is concerned. */
      sameDecision: SameDecisionRule;
      timeline: Timeline | undefined;
      /** Who is on the request (for a request in the register): see components/verifications/assignment-panel.tsx. */
      assignment: AssignmentRead | undefined;
      /** The request's internal notes; undefined when they could not be read (or it is not in the register). */
      notes: VerificationNotes | undefined;
      /** The zone the timeline's links to audit trail days are in. */
      timeZone: string;
      may: { review: boolean; followUp: boolean; readAuditTrail: boolean; note: boolean };
      /** Brings the register up to date with the record (see verificationShown). */
      refreshRegister: () => Promise<string | null>;
    };

/** A purged request's page: the register's copy and the history, which the dashboard keeps. */
export type PurgedPage = {
  request: PurgedRequest;
  timeline: Timeline | undefined;
  timeZone: string;
  may: { readAuditTrail: boolean };
};

export type AssignmentRead = {
  assignee: { id: string; name: string; since: string } | null;
  colleagues: { id: string; name: string }[];
  canAssign: boolean;
  me: string;
};

/** Who is on the request and, for someone who may assign, to whom it can go; undefined when unreadable. */
async function readAssignment(id: string, staff: Staff): Promise<AssignmentRead | undefined> {
  const canAssign = can(staff.role, 'verification:assign');
  try {
    const [assignee, colleagues] = await Promise.all([getAssignee(id), canAssign ? listAssignableStaff() : []]);
    return {
      assignee: assignee ? { id: assignee.id, name: assignee.name, since: assignee.since.toISOString() } : null,
      colleagues,
      canAssign,
      me: staff.id,
    };
  } catch {
    return undefined;
  }
}

/** Reads all the page shows for `id`, as `staff` may see it; never rejects. `now` decides what kept_until has passed. */
export async function readVerificationPage(id: string, staff: Staff, now: Date = new Date()): Promise<VerificationPageRead> {
  // The register entry does not depend on the record: read everything at once.
  const [read, entry, review, timeline, notes, timeZone, assignment] = await Promise.all([
    // The register is refreshed once the page has gone out, after the view's trace (verificationShown).
    readVerification(id, { refresh: 'by-caller' }),
    getRegisterEntry(id).catch(() => undefined),
    readNameReviewForPage(id),
    readTimelineForPage(id),
    readNotesForPage(id),
    displayTimeZone(),
    readAssignment(id, staff),
  ]);
  if (!read.ok) {
    const purged = await purgedRequestFor(read.failure, entry, now).catch(() => undefined);
    if (purged) {
      return {
        ok: false,
        notFound: false,
        purged: { request: purged, timeline, timeZone, may: { readAuditTrail: can(staff.role, 'audit:read') } },
      };
    }
    const { kind, title, message, transient } = read.failure;
    return {
      ok: false,
      notFound: kind === 'not_found',
      problem: { kind: kind === 'unknown' ? 'unexpected' : kind, title, message, transient },
    };
  }
  const { record } = read;
  return {
    ok: true,
    record,
    request: entry ? requestFacts(entry, record, staff) : undefined,
    requestedName: entry?.name,
    // Compared on the server: the comparison's tables stay out of the page's JavaScript.
    nameComparison: completedNameComparison(record.status, entry?.name ?? record.inputted_name, record.identified_name),
    reviewDecision: review?.decision ?? null,
    review: reviewSummary(review),
    sameDecision: sameDecisionRule(entry?.createdBy ?? null, staff.id),
    timeline,
    assignment: entry ? assignment : undefined,
    notes,
    timeZone,
    may: {
      review: can(staff.role, 'verification:review'),
      followUp: can(staff.role, 'verification:create'),
      readAuditTrail: can(staff.role, 'audit:read'),
      note: can(staff.role, 'verification:note'),
    },
    refreshRegister: () => read.refreshRegister(),
  };
}

function requestFacts(entry: RegisterEntry, record: VerificationRecord, staff: Staff): RequestFacts {
  const mayCopy = can(staff.role, 'link:copy');
  const usable = record.status === 'pending' && new Date(record.access_expires_at) > new Date();
  return {
    createdAt: entry.createdAt,
    language: entry.language,
    channels: { shareableLink: entry.shareableLink, emailNotification: entry.emailNotification, smsNotification: entry.smsNotification },
    link: mayCopy && entry.link ? { url: entry.link, usable } : null,
    keptUntil: entry.keptUntil?.toISOString() ?? record.kept_until ?? null,
  };
}

/** A purged request's page leaves the same view trace as any other: the register's copy was read. */
export function purgedVerificationShown(id: string, staff: Staff): void {
  afterResponse(() =>
    recordAuditUnlessRecent({ actorId: staff.id, action: 'verification.viewed', target: { type: 'verification', id } }, 60_000),
  );
}

/**
 * Written once the page has gone out; neither changes what it shows. Live updates render the page
 * again: one view per minute and person is the useful trace.
 */
export function verificationShown(id: string, staff: Staff, read: Extract<VerificationPageRead, { ok: true }>): void {
  afterResponse(async () => {
    await recordAuditUnlessRecent({ actorId: staff.id, action: 'verification.viewed', target: { type: 'verification', id } }, 60_000);
    await read.refreshRegister();
  });
}
