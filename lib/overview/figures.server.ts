// The overview's figures for a period and the register's filters, computed by the database from
// the register alone (codes, dates and staff ids: no personal data leaves it): requests created per
// day or week by outcome, the completion rate, the time from creation to completion (median and
// 90th percentile), failure reasons, methods, name mismatches and their decisions, and the items
// open now per assignee with the oldest one's age. Days and weeks are the display zone's.
import 'server-only';
import { and, count, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { nameReviews, staffUsers, verificationRequests } from '@/lib/db/schema';
import { reasonConditions } from '@/lib/verifications/queue/queue.server';
import type { OverviewFilter } from './overview-query';
import type { Period } from './period';

const r = verificationRequests;

export type OverviewFigures = {
  /** Requests created in each bucket (a day, or a week's Monday), by their status now. */
  created: { bucket: string; status: string; count: number }[];
  totals: { created: number; completed: number; failed: number; expired: number; pending: number };
  /** Completed ÷ created, or null when nothing was created. */
  completionRate: number | null;
  /** Seconds from creation to completion over the completed requests; null when none. */
  completionSeconds: { median: number | null; p90: number | null };
  failureReasons: { reason: string | null; count: number }[];
  methods: { method: string | null; count: number }[];
  mismatches: { total: number; decisions: { decision: string | null; count: number }[] };
  /** Items of the queue now, per assignee (null: unassigned), with the oldest one's creation. */
  openItems: { assigneeId: string | null; assigneeName: string | null; count: number; oldestCreatedAt: Date }[];
};

function filterConditions(filter: OverviewFilter): SQL[] {
  const conditions: SQL[] = [];
  if (filter.purpose) conditions.push(eq(r.purpose, filter.purpose));
  if (filter.language) conditions.push(eq(r.language, filter.language));
  if (filter.channel === 'link') conditions.push(eq(r.shareableLink, true));
  if (filter.channel === 'email') conditions.push(eq(r.emailNotification, true));
  if (filter.channel === 'sms') conditions.push(eq(r.smsNotification, true));
  if (filter.createdBy) conditions.push(eq(r.createdBy, filter.createdBy));
  return conditions;
}

export async function overviewFigures(
  period: Period,
  filter: OverviewFilter,
  { now, pendingDays, followUpDays }: { now: Date; pendingDays: number; followUpDays: number },
): Promise<OverviewFigures> {
  const db = await getDb();
  const inPeriod = and(gte(r.createdAt, period.from), lt(r.createdAt, period.to), ...filterConditions(filter));
  const local = sql`(${r.createdAt} at time zone ${period.timeZone})`;
  // Counted per truncated timestamp and only then written as a day: formatting each row instead
  // made a million-row register sort its rows by text rather than hash them into a few buckets.
  const perBucket = db
    .select({ start: sql`date_trunc(${period.bucket}, ${local})`.as('start'), status: r.status, n: count().as('n') })
    .from(r)
    .where(inPeriod)
    .groupBy(sql`1`, r.status)
    .as('per_bucket');
  const secondsToComplete = sql`extract(epoch from (${r.completedAt} - ${r.createdAt}))`;
  const completedWithTime = sql`${r.status} = 'completed' and ${r.completedAt} is not null`;
  const reasons = reasonConditions({ now, pendingDays, followUpDays });

  const [created, [totals], failureReasons, methods, decisions, openItems] = await Promise.all([
    db
      .select({ bucket: sql<string>`to_char(${perBucket.start}, 'YYYY-MM-DD')`, status: perBucket.status, count: perBucket.n })
      .from(perBucket)
      .orderBy(perBucket.start, perBucket.status),
    db
      .select({
        created: count(),
        completed: count(sql`case when ${r.status} = 'completed' then 1 end`),
        failed: count(sql`case when ${r.status} = 'failed' then 1 end`),
        expired: count(sql`case when ${r.status} = 'expired' then 1 end`),
        pending: count(sql`case when ${r.status} = 'pending' then 1 end`),
        median: sql<number | null>`percentile_cont(0.5) within group (order by ${secondsToComplete}) filter (where ${completedWithTime})`,
        p90: sql<number | null>`percentile_cont(0.9) within group (order by ${secondsToComplete}) filter (where ${completedWithTime})`,
      })
      .from(r)
      .where(inPeriod),
    db
      .select({ reason: r.failureReason, count: count() })
      .from(r)
      .where(and(inPeriod, eq(r.status, 'failed')))
      .groupBy(r.failureReason)
      .orderBy(sql`2 desc`, r.failureReason),
    db
      .select({ method: r.method, count: count() })
      .from(r)
      .where(and(inPeriod, eq(r.status, 'completed')))
      .groupBy(r.method)
      .orderBy(sql`2 desc`, r.method),
    db
      .select({ decision: nameReviews.decision, count: count() })
      .from(r)
      .leftJoin(nameReviews, eq(nameReviews.verificationId, r.verificationId))
      .where(and(inPeriod, eq(r.status, 'completed'), eq(r.nameMismatch, true)))
      .groupBy(nameReviews.decision)
      .orderBy(nameReviews.decision),
    // Open now, whenever created: the queue's reasons, under the same filters.
    db
      .select({
        assigneeId: r.assignedTo,
        assigneeName: staffUsers.name,
        count: count(),
        oldestCreatedAt: sql<string>`min(${r.createdAt})`,
      })
      .from(r)
      .leftJoin(staffUsers, eq(staffUsers.id, r.assignedTo))
      .where(and(or(...Object.values(reasons)), ...filterConditions(filter)))
      .groupBy(r.assignedTo, staffUsers.name)
      .orderBy(sql`3 desc`, staffUsers.name),
  ]);
  const toNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const t = totals ?? { created: 0, completed: 0, failed: 0, expired: 0, pending: 0, median: null, p90: null };
  return {
    created: created.map((row) => ({ bucket: row.bucket, status: row.status, count: Number(row.count) })),
    totals: { created: t.created, completed: t.completed, failed: t.failed, expired: t.expired, pending: t.pending },
    completionRate: t.created > 0 ? t.completed / t.created : null,
    completionSeconds: { median: toNumber(t.median), p90: toNumber(t.p90) },
    failureReasons,
    methods,
    mismatches: { total: decisions.reduce((sum, row) => sum + row.count, 0), decisions },
    openItems: openItems.map((row) => ({ ...row, oldestCreatedAt: new Date(row.oldestCreatedAt) })),
  };
}
