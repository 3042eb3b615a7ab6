// "Needs review" in SQL: completed requests whose identified name differs from the requested
// one (the register's name_mismatch flag, set on write) and on which nobody has decided yet.
import 'server-only';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { nameReviews, verificationRequests } from '@/lib/db/schema';

const r = verificationRequests;

export function needsReviewCondition(): SQL {
  return and(
    eq(r.status, 'completed'),
    eq(r.nameMismatch, true),
    sql`not exists (select 1 from ${nameReviews} where ${nameReviews.verificationId} = ${r.verificationId})`,
  )!;
}
