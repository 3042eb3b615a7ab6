// Creates a verification request exactly once per submitted form. The form carries a random
// submission key; the first request with that key claims it in the database before calling
// the service, and any repeat (double click, a browser resending a no-JS POST) waits for and
// returns the first one's result instead of creating a second request upstream.
import 'server-only';
import { and, eq, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { auditInsert } from '@/lib/audit/audit';
import { type Db, getDb } from '@/lib/db';
import { createSubmissions, verificationRequests } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';
import { afterResponse } from '@/lib/platform/after-response';
import { deleteBatch, purgeInBatches } from '@/lib/platform/batched-purge';
import { preparedStatement, rowsOf } from '@/lib/platform/database';
import { logger } from '@/lib/platform/log';
import type { RateLimitRefusal, RateLimitTake, RateLimitVerdict } from '@/lib/platform/shared-rate-limit';
import { type CreateVerificationRequest, createVerification } from '@/lib/verification-service';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import { FOLLOW_UP_STATUSES } from '@/lib/verifications/follow-up/follow-up.server';
import { readVerification } from '@/lib/verifications/record/read-verification.server';
import { contactDigestsOfRequest } from '@/lib/verifications/register/contact-digest.server';
import { newRegisterEntry } from '@/lib/verifications/register/writes.server';
import type { CreatedVerification } from './form-state';

/** The creator's slot under the create limit was refused: nothing was claimed or created. */
export class CreateLimitReachedError extends Error {
  constructor(readonly decision: RateLimitRefusal) {
    super('The create limit was reached');
    this.name = 'CreateLimitReachedError';
  }
}

export class SubmissionInProgressError extends Error {
  constructor() {
    super('The same form is already being submitted');
    this.name = 'SubmissionInProgressError';
  }
}

const SUBMISSION_KEYS_KEPT_MS = 24 * 60 * 60 * 1000;

const log = logger.child({ area: 'verifications' });

/** A value given when a prepared statement runs, typed as the column it fills. */
const param = <T>(name: string) => sql.placeholder(name) as unknown as T;

/**
 * The create's two statements, prepared once per database: building drizzle's SQL for them (the
 * WITH of three writes above all) cost more of a create's time than running them, and on a
 * PostgreSQL server a named statement is also parsed and planned once per connection.
 */
function prepareCreateStatements(db: Db) {
  const claim = db
    .insert(createSubmissions)
    .values({ key: param('key') })
    .onConflictDoNothing()
    .returning({ key: createSubmissions.key })
    .prepare('create_verification_claim');
  // The register entry, its audit event and the claim's outcome are written together, as one
  // statement: Postgres runs every part of a data-modifying WITH atomically, so none can exist
  // without the others, in one round trip rather than the five of BEGIN, three writes and COMMIT.
  // Every column newRegisterEntry fills, so the statement follows it when it changes.
  const entryColumns = Object.keys(newRegisterEntry('', {} as CreateVerificationRequest, null));
  const entry = Object.fromEntries(entryColumns.map((column) => [column, sql.placeholder(column)]));
  // The follow-up link is the old request's id only if the register holds it as expired or
  // failed when the row is written (the action checked before, but the old row may have been
  // purged since): otherwise null, and the create itself is never lost over a link.
  const old = db
    .select({ verificationId: verificationRequests.verificationId })
    .from(verificationRequests)
    .where(
      and(
        eq(verificationRequests.verificationId, param<string>('followsVerificationId')),
        inArray(verificationRequests.status, [...FOLLOW_UP_STATUSES]),
      ),
    );
  const register = db.$with('register', {}).as(
    db
      .insert(verificationRequests)
      .values({
        ...(entry as unknown as typeof verificationRequests.$inferInsert),
        createdBy: param('createdBy'),
        followsVerificationId: sql`(${old})`,
      })
      .onConflictDoNothing()
      .getSQL(),
  );
  const audit = db.$with('audit', {}).as(
    auditInsert(db, {
      actorId: param('createdBy'),
      action: 'verification.created',
      target: { type: 'verification', id: param('verificationId') },
    }).getSQL(),
  );
  const settle = db
    .with(register, audit)
    .update(createSubmissions)
    .set({ verificationId: param('verificationId') })
    .where(eq(createSubmissions.key, param('key')))
    .prepare('create_verification_settle');
  return { claim, settle };
}

const statementsByDb = new WeakMap<Db, ReturnType<typeof prepareCreateStatements>>();

function createStatements(db: Db) {
  let statements = statementsByDb.get(db);
  if (!statements) {
    statements = prepareCreateStatements(db);
    statementsByDb.set(db, statements);
  }
  return statements;
}

export async function createVerificationOnce(
  submissionKey: string,
  request: CreateVerificationRequest,
  createdBy: string | null,
  /** An expired or failed request of the register this one follows up (see follow-up/follow-up.server.ts). */
  followsVerificationId: string | null = null,
  /**
   * The creator's slot under the create limit (rate-limit.server.ts). Taken in the claim's own
   * statement: one round trip before the service is called rather than two. Refused, it throws
   * CreateLimitReachedError and nothing is claimed.
   */
  limit?: RateLimitTake,
): Promise<CreatedVerification> {
  const db = await getDb();
  const statements = createStatements(db);
  const claimed = limit
    ? await claimWithinLimit(db, submissionKey, limit)
    : (await statements.claim.execute({ key: submissionKey })).length > 0;
  if (!claimed) return waitForEarlierSubmission(submissionKey);

  let created: Awaited<ReturnType<typeof createVerification>>;
  try {
    created = await createVerification(request);
  } catch (error) {
    // Release the claim so that a deliberate retry of the same form can go through.
    await db.delete(createSubmissions).where(and(eq(createSubmissions.key, submissionKey), isNull(createSubmissions.verificationId)));
    throw error;
  }

  const link = created.link ?? null;
  // Registered and audited under the spelling every later read uses (lib/verification-service/contract/verification-id.ts).
  const verificationId = canonicalVerificationId(created.verificationId);
  await statements.settle.execute({
    ...newRegisterEntry(verificationId, request, link, await contactDigestsOfRequest(request)),
    createdBy,
    followsVerificationId,
    key: submissionKey,
  });

  // What the answer does not need waits until it has gone out. The creation result has no expiry
  // dates: the record is read once rather than make staff wait for a second round trip (a failure
  // is harmless, every later read refreshes). The log line is written then too: the audit entry
  // above is the record of the create; the line is for whoever follows the logs.
  afterResponse(async () => {
    log.info({ verificationId, staffId: createdBy }, 'verification created');
    await readVerification(verificationId, { refresh: 'now' });
  });

  return { message: created.message, verificationId, link };
}

/**
 * Takes the creator's slot and, if the limit allows it, claims the key: one statement. The claim
 * is inserted only when the decision allowed the submission (a repeat of a key inside the window
 * is allowed for free, and then finds the claim taken, as a double submission should). The
 * limit's function commits without waiting for the disk (0006_rate_limit_take.sql), and so this
 * claim does too; the create's settle commits normally afterwards, which makes everything before
 * it in the log durable, the claim included. Prepared once per database, like the create's other
 * two statements. Returns whether this submission holds the claim.
 */
async function claimWithinLimit(db: Db, submissionKey: string, limit: RateLimitTake): Promise<boolean> {
  const statement = preparedStatement(db, 'create_verification_claim_within_limit', claimWithinLimitQuery(limit.query));
  const [row] = rowsOf<RateLimitVerdict & { claimed: number }>(await statement.execute({ ...limit.values, key: submissionKey }));
  if (!row) throw new Error('the create limit returned no verdict');
  const decision = limit.decide(row);
  if (!decision.allowed) throw new CreateLimitReachedError(decision);
  return Number(row.claimed) > 0;
}

const claimQueries = new WeakMap<SQL, SQL>();

/** The claim around the limit's decision, one query object per decision query (so it is prepared once). */
function claimWithinLimitQuery(verdict: SQL): SQL {
  let query = claimQueries.get(verdict);
  if (!query) {
    query = sql`
      with verdict as (${verdict}),
      claim as (
        insert into ${createSubmissions} (${sql.identifier(createSubmissions.key.name)})
        select ${sql.placeholder('key')}::uuid from verdict where verdict.repeat or verdict.added > 0
        on conflict do nothing
        returning 1
      )
      select verdict.used, verdict.repeat, verdict.added, verdict.wait_ms, (select count(*) from claim)::integer as claimed
      from verdict`;
    claimQueries.set(verdict, query);
  }
  return query;
}

/**
 * Forgets submission keys older than a day (a form left open that long gets a fresh key anyway).
 * Run by the hourly retention job, not on every create: it is housekeeping, not part of a create.
 */
export async function purgeOldSubmissionKeys(now: Date = new Date()): Promise<number> {
  const db = await getDb();
  const where = lt(createSubmissions.createdAt, new Date(now.getTime() - SUBMISSION_KEYS_KEPT_MS));
  return purgeInBatches((limit) => deleteBatch(db, { table: createSubmissions, key: createSubmissions.key, where, limit }));
}

async function waitForEarlierSubmission(submissionKey: string): Promise<CreatedVerification> {
  const db = await getDb();
  // The first submission is bounded by the service timeout, then writes the register; wait that
  // long plus a margin for the write, which a busy database can stretch to seconds.
  const deadline = Date.now() + getEnv().VERIFICATION_API_TIMEOUT_MS + 5_000;
  while (Date.now() < deadline) {
    const [row] = await db
      .select({ verificationId: createSubmissions.verificationId, link: verificationRequests.link })
      .from(createSubmissions)
      .leftJoin(verificationRequests, eq(verificationRequests.verificationId, createSubmissions.verificationId))
      .where(eq(createSubmissions.key, submissionKey));
    if (!row) break; // the first attempt failed and released its claim
    if (row.verificationId) {
      return { message: 'Verification request created successfully.', verificationId: row.verificationId, link: row.link ?? null };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new SubmissionInProgressError();
}
