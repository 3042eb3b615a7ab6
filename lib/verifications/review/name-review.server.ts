// Staff's decision on a completed request whose identified name differs from the requested one:
// reading the latest, and recording a new one. A decision can be changed (a second look, a
// colleague's correction): the table holds the latest, with who and when, and the audit trail
// holds every one. The note stays out of the audit trail, which keeps ids and codes only.
import 'server-only';
import { eq } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { nameReviews, staffUsers, verificationRequests } from '@/lib/db/schema';
import { isReviewFourEyesEnabled } from '@/lib/env';
import { publishVerificationChange } from '@/lib/live';
import { nameMismatchOf } from './comparison';
import type { NameReviewDecision, ReviewSummary, SameDecisionRule } from './labels';
import type { NameReviewInput } from './schema';

export type NameReview = {
  decision: NameReviewDecision;
  note: string;
  decidedAt: Date;
  decidedById: string | null;
  /** The staff member's name as their account has it now; null once the account is gone. */
  decidedByName: string | null;
};

/** Why a decision cannot be recorded, as a code: the form's action says it in the reader's words. */
export type NameReviewRefusal = 'not_in_register' | 'not_completed' | 'nothing_to_review' | 'four_eyes';

export class NameReviewRefused extends Error {
  override name = 'NameReviewRefused';
  constructor(
    readonly reason: NameReviewRefusal,
    /** The register's status, for a request not completed. */
    readonly status?: string,
  ) {
    super(`name review refused: ${reason}`);
  }
}

export async function getNameReview(verificationId: string): Promise<NameReview | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({
      decision: nameReviews.decision,
      note: nameReviews.note,
      decidedAt: nameReviews.decidedAt,
      decidedById: nameReviews.decidedBy,
      decidedByName: staffUsers.name,
    })
    .from(nameReviews)
    .leftJoin(staffUsers, eq(staffUsers.id, nameReviews.decidedBy))
    .where(eq(nameReviews.verificationId, verificationId));
  return row;
}

/** For the detail page: the review, or none when it cannot be read (the page shows the record regardless). */
export function readNameReviewForPage(verificationId: string): Promise<NameReview | undefined> {
  return getNameReview(verificationId).catch(() => undefined);
}

export function reviewSummary(review: NameReview | undefined): ReviewSummary | null {
  if (!review) return null;
  return { decision: review.decision, note: review.note, decidedAt: review.decidedAt.toISOString(), decidedByName: review.decidedByName };
}

/**
 * Who may accept `createdBy`'s request as the same person, as `staffId` is concerned. With
 * REVIEW_FOUR_EYES on, not its creator: accepting a mismatch is the decision that lets a
 * verification count, so a second person takes it. A request whose creator's account is gone
 * has no creator left to exclude. "Not the same person" is never restricted: it only holds back.
 */
export function sameDecisionRule(createdBy: string | null, staffId: string): SameDecisionRule {
  if (!isReviewFourEyesEnabled() || createdBy === null) return 'anyone';
  return createdBy === staffId ? 'not_you' : 'not_creator';
}

/**
 * Records `staffId`'s decision, replacing any earlier one, with an audit entry and a live event
 * (open detail pages show it). Refused (NameReviewRefused) unless the register holds the request
 * as completed with differing names, and "same person" from the request's creator under four eyes.
 */
export async function recordNameReview(staffId: string, { verificationId, decision, note }: NameReviewInput): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    // FOR UPDATE: a status update and two decisions at once are serialised on the register row,
    // so the audit trail's "previous" is always the decision actually replaced.
    const [request] = await tx
      .select({
        status: verificationRequests.status,
        name: verificationRequests.name,
        identifiedName: verificationRequests.identifiedName,
        createdBy: verificationRequests.createdBy,
      })
      .from(verificationRequests)
      .where(eq(verificationRequests.verificationId, verificationId))
      .for('update');
    if (!request) throw new NameReviewRefused('not_in_register');
    if (request.status !== 'completed') throw new NameReviewRefused('not_completed', request.status);
    // Decided from the names themselves, not the stored flag: a row completed before the
    // register kept the flag can be reviewed too.
    if (nameMismatchOf(request.status, request.name, request.identifiedName) !== true) throw new NameReviewRefused('nothing_to_review');
    if (decision === 'same_person' && sameDecisionRule(request.createdBy, staffId) === 'not_you') throw new NameReviewRefused('four_eyes');

    const [previous] = await tx
      .select({ decision: nameReviews.decision })
      .from(nameReviews)
      .where(eq(nameReviews.verificationId, verificationId));
    const decidedAt = new Date();
    await tx
      .insert(nameReviews)
      .values({ verificationId, decision, note, decidedBy: staffId, decidedAt })
      .onConflictDoUpdate({ target: nameReviews.verificationId, set: { decision, note, decidedBy: staffId, decidedAt } });
    await recordAudit(
      {
        actorId: staffId,
        action: 'verification.reviewed',
        target: { type: 'verification', id: verificationId },
        details: previous ? { decision, previous: previous.decision } : { decision },
      },
      tx,
    );
    await publishVerificationChange({ verificationId, status: request.status }, tx);
  });
}
