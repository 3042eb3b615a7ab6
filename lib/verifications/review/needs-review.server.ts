// "Needs review" in SQL: completed requests whose identified name differs from the requested
// one (the register's name_mismatch flag, set on write) and on which nobody has decided yet
// (name_reviewed, which a trigger on name_reviews keeps: migration 0013). Both flags are on the
// register row, so the view is the partial index verification_requests_needs_review_idx.
import 'server-only';
import { and, eq, type SQL } from 'drizzle-orm';
import { verificationRequests } from '@/lib/db/schema';

const r = verificationRequests;

export function needsReviewCondition(): SQL {
  return and(eq(r.status, 'completed'), eq(r.nameMismatch, true), eq(r.nameReviewed, false))!;
}
