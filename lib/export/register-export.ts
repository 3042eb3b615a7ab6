// The register as CSV rows for auditors: what the register keeps of each request, how it ended
// (completion time, method, the service's failure reason), with its name check, review decision
// and reviewer, and who has it now (never the review's note, which may name people; no e-mail
// address or phone number — it keeps none), read newest first in keyset batches so that an
// export of any size holds a batch or two in memory and each batch is an index range, not an OFFSET.
import 'server-only';
import { and, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getTranslations } from 'next-intl/server';
import { getDb } from '@/lib/db';
import { NAME_REVIEW_DECISIONS } from '@/lib/db/name-review-decisions';
import { nameReviews, staffUsers, verificationRequests } from '@/lib/db/schema';
import { LANGUAGES } from '@/lib/i18n/languages';
import { rowsOf } from '@/lib/platform/database';
import { FALLBACK_TIME_ZONE } from '@/lib/time/time-zone';
import { verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import type { RegisterFilter } from '@/lib/verifications/register/filter';
import { PREDEFINED_PURPOSE_VALUES } from '@/lib/verifications/register/filter';
import { PURGED_STATUS } from '@/lib/verifications/register/purged';
import { type ListContext, registerConditions, withContactDigest } from '@/lib/verifications/register/queries.server';
import type { CsvCell } from './csv';
import type { ValuesChoice } from './export-format';
import { selectList, zonedTimestamp, zoneLabel } from './sql-rows';

/**
 * Rows per query: enough that a query's round trip and plan are small beside its rows, few
 * enough that the batch being written and the one read ahead (csv-stream.ts) stay short-lived
 * garbage rather than growing the heap.
 */
export const EXPORT_BATCH_SIZE = 2000;

const r = verificationRequests;
// The staff member who decided the review, and the one who has the request: more joins of the
// staff table, beside the creator's.
const REVIEWER = 'reviewer';
const reviewer = alias(staffUsers, REVIEWER);
const ASSIGNEE = 'assignee';
const assignee = alias(staffUsers, ASSIGNEE);
/** The methods the catalogs name; any other the service reports goes out as it came. */
const KNOWN_METHODS = ['passport', 'id_card', 'drivers_license'] as const;

/** The columns and their order; each one's header is `exports.register.header.<key>` (docs/exports.md). */
export const REGISTER_CSV_COLUMNS = [
  'verificationId',
  'createdAt',
  'createdById',
  'createdByName',
  'requestedName',
  'purpose',
  'language',
  'channels',
  'status',
  'identifiedName',
  'linkExpiresAt',
  'keptUntil',
  'namesDiffer',
  'reviewDecision',
  'reviewedAt',
  // Added after the first release: at the end, so a program reading columns by position still works.
  'reviewedByName',
  'completedAt',
  'method',
  'failureReason',
  // Like the creator: the id, which stays exact, and the name as the account has it now.
  'assignedToId',
  'assignedToName',
] as const;

/** What the query selects; timestamps already written in the display zone (sql-rows.ts). */
function columnsIn(timeZone: string, now: Date) {
  return {
    verificationId: r.verificationId,
    createdAt: zonedTimestamp(r.createdAt, timeZone),
    createdBy: r.createdBy,
    createdByName: staffUsers.name,
    name: r.name,
    purpose: r.purpose,
    language: r.language,
    shareableLink: r.shareableLink,
    emailNotification: r.emailNotification,
    smsNotification: r.smsNotification,
    status: r.status,
    // Past kept_until the file says "Purged", as the register's page does (register/purged.ts),
    // with the export's one clock for every batch.
    pastKeptUntil: sql<boolean>`coalesce(${r.keptUntil} <= ${now.toISOString()}::timestamptz, false)`,
    identifiedName: r.identifiedName,
    accessExpiresAt: zonedTimestamp(r.accessExpiresAt, timeZone),
    keptUntil: zonedTimestamp(r.keptUntil, timeZone),
    nameMismatch: r.nameMismatch,
    reviewDecision: nameReviews.decision,
    reviewedAt: zonedTimestamp(nameReviews.decidedAt, timeZone),
    reviewedByName: reviewer.name,
    completedAt: zonedTimestamp(r.completedAt, timeZone),
    method: r.method,
    failureReason: r.failureReason,
    assignedTo: r.assignedTo,
    assignedToName: assignee.name,
    // The keyset cursor: created_at as Postgres prints it, to the microsecond (a JS Date would
    // round it to the millisecond, and the next batch would repeat or skip rows).
    cursorAt: sql<string>`${r.createdAt}::text`,
  };
}

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
  pastKeptUntil: boolean;
  identifiedName: string | null;
  accessExpiresAt: string | null;
  keptUntil: string | null;
  nameMismatch: boolean | null;
  reviewDecision: string | null;
  reviewedAt: string | null;
  reviewedByName: string | null;
  completedAt: string | null;
  method: string | null;
  failureReason: string | null;
  assignedTo: string | null;
  assignedToName: string | null;
  cursorAt: string;
};

const CHANNELS = ['link', 'email', 'sms'] as const;

/** How the request reached the person, as codes (the create form's). */
function channelCodes(row: RegisterExportRow): (typeof CHANNELS)[number][] {
  return CHANNELS.filter((channel) =>
    channel === 'link' ? row.shareableLink : channel === 'email' ? row.emailNotification : row.smsNotification,
  );
}

export type RegisterCsvLayout = { header: string[]; toCells: (row: RegisterExportRow) => CsvCell[] };

/**
 * The header and the cells of the register's file in the exporter's language: words for the
 * codes (statuses, purposes, languages, channels, decisions), or the codes themselves when asked.
 * Each word is looked up once per export, not once per row. A purpose typed by hand, and a code
 * no catalog knows, go out as they are.
 */
export async function registerCsvLayout({ timeZone, values }: { timeZone: string; values: ValuesChoice }): Promise<RegisterCsvLayout> {
  const [t, tCommon] = await Promise.all([getTranslations('exports.register'), getTranslations('common')]);
  const header = [
    t('header.verificationId'),
    t('header.createdAt', { zone: zoneLabel(timeZone) }),
    t('header.createdById'),
    t('header.createdByName'),
    t('header.requestedName'),
    t('header.purpose'),
    t('header.language'),
    t('header.channels'),
    t('header.status'),
    t('header.identifiedName'),
    t('header.linkExpiresAt', { zone: zoneLabel(timeZone) }),
    t('header.keptUntil', { zone: zoneLabel(timeZone) }),
    t('header.namesDiffer'),
    t('header.reviewDecision'),
    t('header.reviewedAt', { zone: zoneLabel(timeZone) }),
    t('header.reviewedByName'),
    t('header.completedAt', { zone: zoneLabel(timeZone) }),
    t('header.method'),
    t('header.failureReason'),
    t('header.assignedToId'),
    t('header.assignedToName'),
  ];
  const codes = values === 'codes';
  const words = (entries: [string, string][]) => new Map(codes ? [] : entries);
  const statuses = words([...verificationStatuses, PURGED_STATUS].map((status) => [status, tCommon(`status.${status}`)]));
  const purposes = words(PREDEFINED_PURPOSE_VALUES.map((purpose) => [purpose, tCommon(`purpose.${purpose}`)]));
  const languages = words(LANGUAGES.map((language) => [language, t(`language.${language}`)]));
  const channels = words(CHANNELS.map((channel) => [channel, t(`channel.${channel}`)]));
  const decisions = words(NAME_REVIEW_DECISIONS.map((decision) => [decision, tCommon(`nameReviewDecision.${decision}`)]));
  const methods = words(KNOWN_METHODS.map((method) => [method, tCommon(`method.${method}`)]));
  const [yes, no] = codes ? ['yes', 'no'] : [t('yes'), t('no')];
  const word = (map: Map<string, string>, code: string | null) => (code === null ? null : (map.get(code) ?? code));
  return {
    header,
    toCells: (row) => [
      row.verificationId,
      row.createdAt,
      row.createdBy,
      row.createdByName,
      row.name,
      word(purposes, row.purpose),
      word(languages, row.language),
      channelCodes(row)
        .map((channel) => word(channels, channel))
        .join(codes ? ' ' : ', '),
      word(statuses, row.pastKeptUntil ? PURGED_STATUS : row.status),
      row.identifiedName,
      row.accessExpiresAt,
      row.keptUntil,
      // Empty while there is nothing to compare (not completed, or no name read yet).
      row.nameMismatch === null ? null : row.nameMismatch ? yes : no,
      word(decisions, row.reviewDecision),
      row.reviewedAt,
      row.reviewedByName,
      row.completedAt,
      word(methods, row.method),
      // The service's own text (it may be a sentence, in its language): as it came, like a name.
      row.failureReason,
      row.assignedTo,
      row.assignedToName,
    ],
  };
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
  // The same search as the register's page: an address or a number by its keyed hash.
  const conditions = registerConditions(filter, await withContactDigest(filter, context));
  const columns = columnsIn(context.timeZone ?? FALLBACK_TIME_ZONE, context.now);
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
        -- A raw template names an alias without its table: spelt out here.
        left join ${staffUsers} ${sql.identifier(REVIEWER)} on ${reviewer.id} = ${nameReviews.decidedBy}
        left join ${staffUsers} ${sql.identifier(ASSIGNEE)} on ${assignee.id} = ${r.assignedTo}
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
