// The register as CSV rows for auditors: what the register keeps of each request, with its name
// check and review decision (never the review's note, which may name people; no e-mail
// address or phone number — it keeps none), read newest first in keyset batches so that an
// export of any size holds a batch or two in memory and each batch is an index range, not an OFFSET.
import 'server-only';
import { and, type SQL, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { nameReviews, staffUsers, verificationRequests } from '@/lib/db/schema';
import { rowsOf } from '@/lib/platform/database';
import type { RegisterFilter } from '@/lib/verifications/register/filter';
import { type ListContext, registerConditions } from '@/lib/verifications/register/queries.server';
import type { CsvCell } from './csv';
import { isoTimestamp, selectList } from './sql-rows';

/**
 * Rows per query: enough that a query's round trip and plan are small beside its rows, few
 * enough that the batch being written and the one read ahead (csv-stream.ts) stay short-lived
 * garbage rather than growing the heap.
 */
export const EXPORT_BATCH_SIZE = 2000;

const r = verificationRequests;

export const REGISTER_CSV_HEADER = [
  'Verification id',
  'Created at (UTC)',
  'Created by (staff id)',
  'Created by (name)',
  'Requested name',
  'Purpose',
  'Language',
  'Channels',
  'Status',
  'Identified name',
  'Link expires at (UTC)',
  'Purged after (UTC)',
  'Names differ',
  'Review decision',
  'Reviewed at (UTC)',
] as const;

const columns = {
  verificationId: r.verificationId,
  createdAt: isoTimestamp(r.createdAt),
  createdBy: r.createdBy,
  createdByName: staffUsers.name,
  name: r.name,
  purpose: r.purpose,
  language: r.language,
  shareableLink: r.shareableLink,
  emailNotification: r.emailNotification,
  smsNotification: r.smsNotification,
  status: r.status,
  identifiedName: r.identifiedName,
  accessExpiresAt: isoTimestamp(r.accessExpiresAt),
  keptUntil: isoTimestamp(r.keptUntil),
  nameMismatch: r.nameMismatch,
  reviewDecision: nameReviews.decision,
  reviewedAt: isoTimestamp(nameReviews.decidedAt),
  // The keyset cursor: created_at as Postgres prints it, to the microsecond (a JS Date would
  // round it to the millisecond, and the next batch would repeat or skip rows).
  cursorAt: sql<string>`${r.createdAt}::text`,
};

/** A row as the query returns it: timestamps already in the file's form (sql-rows.ts). */
export type RegisterExportRow = {
  verificationId: string;
  createdAt: string;
  createdBy: string | null;
  createdByName: string | null;
  name: string;
  purpose: string;
  language: string;
  shareableLink: boolean;
  emailNotification: boolean;
  smsNotification: boolean;
  status: string;
  identifiedName: string | null;
  accessExpiresAt: string | null;
  keptUntil: string | null;
  nameMismatch: boolean | null;
  reviewDecision: string | null;
  reviewedAt: string | null;
  cursorAt: string;
};

/** How the request reached the person, in the codes the create form uses. */
function channels(row: RegisterExportRow): string {
  return [row.shareableLink && 'link', row.emailNotification && 'email', row.smsNotification && 'sms'].filter(Boolean).join(' ');
}

export function registerCsvCells(row: RegisterExportRow): CsvCell[] {
  return [
    row.verificationId,
    row.createdAt,
    row.createdBy,
    row.createdByName,
    row.name,
    row.purpose,
    row.language,
    channels(row),
    row.status,
    row.identifiedName,
    row.accessExpiresAt,
    row.keptUntil,
    // Empty while there is nothing to compare (not completed, or no name read yet).
    row.nameMismatch === null ? null : row.nameMismatch ? 'yes' : 'no',
    row.reviewDecision,
    row.reviewedAt,
  ];
}

/**
 * The filtered register, newest first (whatever the view's on-screen order: a file is read in
 * full, and one order makes the batches a simple keyset walk), `batchSize` rows at a time.
 */
export async function* registerExportBatches(
  filter: RegisterFilter,
  context: ListContext,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<RegisterExportRow[]> {
  const conditions = registerConditions(filter, context);
  const db = await getDb();
  let after: { at: string; id: string } | undefined;
  for (;;) {
    const keyset: SQL[] = after ? [sql`(${r.createdAt}, ${r.verificationId}) < (${after.at}::timestamptz, ${after.id})`] : [];
    const where = [...conditions, ...keyset];
    const batch = rowsOf<RegisterExportRow>(
      await db.execute(sql`
        select ${selectList(columns)}
        from ${r}
        left join ${staffUsers} on ${staffUsers.id} = ${r.createdBy}
        -- At most one review per request (its key): the join never repeats a row.
        left join ${nameReviews} on ${nameReviews.verificationId} = ${r.verificationId}
        ${where.length > 0 ? sql`where ${and(...where)}` : sql``}
        order by ${r.createdAt} desc, ${r.verificationId} desc
        limit ${batchSize}`),
    );
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
    const last = batch[batch.length - 1]!;
    after = { at: last.cursorAt, id: last.verificationId };
  }
}
