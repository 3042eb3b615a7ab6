// Creates a verification request exactly once per submitted form. The form carries a random
// submission key; the first request with that key claims it in the database before calling
// the service, and any repeat (double click, a browser resending a no-JS POST) waits for and
// returns the first one's result instead of creating a second request upstream.
import 'server-only';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { auditInsert } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { createSubmissions, verificationRequests } from '@/lib/db/schema';
import { getEnv } from '@/lib/env';
import { afterResponse } from '@/lib/platform/after-response';
import { type CreateVerificationRequest, createVerification, getVerification } from '@/lib/verification-service';
import type { CreatedVerification } from './form-state';
import { newRegisterEntry, refreshRegisterEntry } from './register-writes';

export class SubmissionInProgressError extends Error {
  constructor() {
    super('The same form is already being submitted');
    this.name = 'SubmissionInProgressError';
  }
}

const SUBMISSION_KEYS_KEPT_MS = 24 * 60 * 60 * 1000;

export async function createVerificationOnce(
  submissionKey: string,
  request: CreateVerificationRequest,
  createdBy: string | null,
): Promise<CreatedVerification> {
  const db = await getDb();
  const claimed = await db.insert(createSubmissions).values({ key: submissionKey }).onConflictDoNothing().returning();
  if (claimed.length === 0) return waitForEarlierSubmission(submissionKey);

  let created: Awaited<ReturnType<typeof createVerification>>;
  try {
    created = await createVerification(request);
  } catch (error) {
    // Release the claim so that a deliberate retry of the same form can go through.
    await db.delete(createSubmissions).where(and(eq(createSubmissions.key, submissionKey), isNull(createSubmissions.verificationId)));
    throw error;
  }

  const link = created.link ?? null;
  // The register entry, its audit event and the claim's outcome are written together, as one
  // statement: Postgres runs every part of a data-modifying WITH atomically, so none can exist
  // without the others, in one round trip rather than the five of BEGIN, three writes and COMMIT.
  const register = db
    .insert(verificationRequests)
    .values({ ...newRegisterEntry(created.verificationId, request, link), createdBy })
    .onConflictDoNothing();
  const audit = auditInsert(db, {
    actorId: createdBy,
    action: 'verification.created',
    target: { type: 'verification', id: created.verificationId },
  });
  const settleClaim = db
    .update(createSubmissions)
    .set({ verificationId: created.verificationId })
    .where(eq(createSubmissions.key, submissionKey));
  await db.execute(sql`with register as (${register.getSQL()}), audit as (${audit.getSQL()}) ${settleClaim.getSQL()}`);

  // The creation result has no expiry dates: read the record once the answer has gone out rather
  // than make staff wait for a second round trip. A failure is harmless, every later read refreshes.
  afterResponse(async () => refreshRegisterEntry(created.verificationId, await getVerification(created.verificationId)));

  return { message: created.message, verificationId: created.verificationId, link };
}

/**
 * Forgets submission keys older than a day (a form left open that long gets a fresh key anyway).
 * Run by the hourly retention job, not on every create: it is housekeeping, not part of a create.
 */
export async function purgeOldSubmissionKeys(now: Date = new Date()): Promise<number> {
  const db = await getDb();
  const removed = await db
    .delete(createSubmissions)
    .where(lt(createSubmissions.createdAt, new Date(now.getTime() - SUBMISSION_KEYS_KEPT_MS)))
    .returning({ key: createSubmissions.key });
  return removed.length;
}

async function waitForEarlierSubmission(submissionKey: string): Promise<CreatedVerification> {
  const db = await getDb();
  // The first submission is bounded by the service timeout; wait a little longer than that.
  const deadline = Date.now() + getEnv().VERIFICATION_API_TIMEOUT_MS + 2_000;
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
