// "Needs attention": the requests that need a person now, derived from the register's state, so
// nothing is filed by hand and an item leaves by itself once its cause is gone. Each reason is a
// condition on the register row:
//   - name_mismatch: completed, the names differ, and nobody has decided (the "Needs review" view);
//   - failed / expired: created within QUEUE_FOLLOW_UP_DAYS, and no later request follows it up.
//     Most requests that end unverified are never asked again; without the window a year of them
//     would bury what needs someone now (and cost a scan of a third of the register per look);
//   - expiring: pending with a shareable link that ends within a day (or has ended while the
//     service has not said so yet): the person has not verified and time is short;
//   - stale: pending for longer than QUEUE_PENDING_DAYS (and not already "expiring").
// Completing, reviewing, following up or purging a request removes it. Oldest first: the request
// waiting longest is at the top.
import 'server-only';
import { and, asc, count, eq, gte, lte, not, notExists, type SQL, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import { getDb } from '@/lib/db';
import { staffUsers, verificationRequests } from '@/lib/db/schema';
import { assigneeCondition } from '@/lib/verifications/assignment/assignee-condition.server';
import type { AssigneeFilter } from '@/lib/verifications/assignment/assignee-filter';
import { EXPIRING_WINDOW_MS } from '@/lib/verifications/register/filter';
import { needsReviewCondition } from '@/lib/verifications/review/needs-review.server';
import { QUEUE_REASONS, type QueueReason } from './reasons';

export const QUEUE_PAGE_SIZE = 200;

const r = verificationRequests;

export type QueueItem = {
  verificationId: string;
  name: string;
  status: string;
  reason: QueueReason;
  createdAt: Date;
  accessExpiresAt: Date | null;
  assignee: { id: string; name: string } | null;
};

export type Queue = {
  items: QueueItem[];
  /** How many items each reason holds under the assignee filter (all of them, not only the page's). */
  counts: Record<QueueReason, number>;
  total: number;
};

export type QueueContext = { now: Date; pendingDays: number; followUpDays: number; staffId: string };

const DAY_MS = 24 * 60 * 60 * 1000;

/** The queue's day counts as configured (QUEUE_PENDING_DAYS, QUEUE_FOLLOW_UP_DAYS). */
export function queueDays(env: {
  QUEUE_PENDING_DAYS: number;
  QUEUE_FOLLOW_UP_DAYS: number;
}): Pick<QueueContext, 'pendingDays' | 'followUpDays'> {
  return { pendingDays: env.QUEUE_PENDING_DAYS, followUpDays: env.QUEUE_FOLLOW_UP_DAYS };
}

/** The condition of each reason at `now` (the overview counts open items with them too). */
export function reasonConditions({
  now,
  pendingDays,
  followUpDays,
}: Pick<QueueContext, 'now' | 'pendingDays' | 'followUpDays'>): Record<QueueReason, SQL> {
  const notFollowedUp = notExists(
    // Any request that names this one as the one it follows up: the person was asked again.
    // (The inner table is aliased, so the outer row's column is the one the condition names.)
    sql`(select 1 from ${verificationRequests} as follower where follower.follows_verification_id = ${r.verificationId})`,
  );
  // On the (status, created_at) index: only the window's rows are read.
  const recent = gte(r.createdAt, new Date(now.getTime() - followUpDays * DAY_MS));
  const expiringSoon = and(eq(r.shareableLink, true), lte(r.accessExpiresAt, new Date(now.getTime() + EXPIRING_WINDOW_MS)))!;
  return {
    name_mismatch: needsReviewCondition(),
    failed: and(eq(r.status, 'failed'), recent, notFollowedUp)!,
    expired: and(eq(r.status, 'expired'), recent, notFollowedUp)!,
    expiring: and(eq(r.status, 'pending'), expiringSoon)!,
    stale: and(
      eq(r.status, 'pending'),
      lte(r.createdAt, new Date(now.getTime() - pendingDays * DAY_MS)),
      // A request both old and about to lose its link is listed once, as the more urgent.
      not(expiringSoon),
    )!,
  };
}

/** The queue under `filter`: its oldest QUEUE_PAGE_SIZE items, and how many there are per reason. */
export async function listQueue(filter: AssigneeFilter, context: QueueContext): Promise<Queue> {
  const db = await getDb();
  const conditions = reasonConditions(context);
  const assignee = assigneeCondition(filter, context.staffId);
  const branch = (reason: QueueReason) =>
    db
      .select({
        verificationId: r.verificationId,
        name: r.name,
        status: r.status,
        reason: sql<QueueReason>`${reason}::text`.as('reason'),
        createdAt: r.createdAt,
        accessExpiresAt: r.accessExpiresAt,
        assigneeId: r.assignedTo,
        assigneeName: staffUsers.name,
      })
      .from(r)
      .leftJoin(staffUsers, eq(staffUsers.id, r.assignedTo))
      .where(and(conditions[reason], assignee))
      // The page's oldest items are among each reason's oldest: each branch stops at a page, read
      // in the order of the (status, created_at, id) index, instead of handing every open item
      // (34k at a million rows) to one sort.
      .orderBy(asc(r.createdAt), asc(r.verificationId))
      .limit(QUEUE_PAGE_SIZE);
  const branches = QUEUE_REASONS.map(branch);
  const [rows, counts] = await Promise.all([
    unionAll(branches[0]!, branches[1]!, ...branches.slice(2))
      .orderBy(asc(sql`"created_at"`), asc(sql`"verification_id"`))
      .limit(QUEUE_PAGE_SIZE),
    Promise.all(
      QUEUE_REASONS.map(async (reason) => {
        const [row] = await db.select({ n: count() }).from(r).where(and(conditions[reason], assignee));
        return [reason, row?.n ?? 0] as const;
      }),
    ),
  ]);
  const byReason = Object.fromEntries(counts) as Record<QueueReason, number>;
  return {
    items: rows.map(({ assigneeId, assigneeName, ...item }) => ({
      ...item,
      reason: item.reason as QueueReason,
      createdAt: new Date(item.createdAt),
      accessExpiresAt: item.accessExpiresAt ? new Date(item.accessExpiresAt) : null,
      assignee: assigneeId && assigneeName ? { id: assigneeId, name: assigneeName } : null,
    })),
    counts: byReason,
    total: counts.reduce((sum, [, n]) => sum + n, 0),
  };
}
