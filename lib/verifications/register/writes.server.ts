// Writing the dashboard's register of the verification requests it created: the row for a new
// request, and bringing a row up to date with what the service says (after a read or a webhook).
import 'server-only';
import { eq } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { type Db, getDb } from '@/lib/db';
import { verificationRequests } from '@/lib/db/schema';
import type { CreateVerificationRequest, VerificationRecord } from '@/lib/verification-service';
import { TERMINAL_STATUSES } from '@/lib/verification-service/contract/verification-status';
import { nameMismatchOf } from '@/lib/verifications/review/comparison';
import { forgetRegisterEntries } from './cache.server';
import { getRegisterEntry } from './queries.server';

/** A transaction on the dashboard's database. */
export type RegisterTx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Brings the register's copy of a record up to date with what the service just said (after a
 * read or a webhook), and returns the status the register now holds — or null when the
 * request is not in the register (never created here, or purged: it is not brought back).
 * A terminal status is never replaced, so late or reordered answers cannot move it backwards;
 * a change of status leaves an audit entry.
 */
export async function refreshRegisterEntry(verificationId: string, record: VerificationRecord): Promise<string | null> {
  const db = await getDb();
  // Most reads teach the register nothing new: answer those from the row as last read (usually
  // still in memory), without a transaction, a row lock or a write (this runs on every page view
  // and live refetch).
  const known = await getRegisterEntry(verificationId);
  if (!known) return null;
  if (
    known.status === record.status &&
    known.identifiedName === record.identified_name &&
    known.accessExpiresAt?.getTime() === Date.parse(record.access_expires_at) &&
    known.keptUntil?.getTime() === Date.parse(record.kept_until) &&
    (known.completedAt?.getTime() ?? null) === timeOf(record.identified_date) &&
    known.method === record.verification_method &&
    known.failureReason === record.failed_reason &&
    // Rows completed before the register kept the flag learn it on their next read.
    known.nameMismatch === nameMismatchOf(known.status, known.name, known.identifiedName)
  ) {
    return known.status;
  }
  const status = await db.transaction((tx) => applyServiceRecord(tx, verificationId, record));
  // This instance's next read must not meet the old row (see cache.server.ts).
  forgetRegisterEntries(db);
  return status;
}

/**
 * Inside `tx`: the register's copy of `verificationId` brought up to date with `record` (see
 * refreshRegisterEntry), so the update commits together with whatever else `tx` does (a
 * webhook's receipt and live event). Returns the status the register holds, or null when the
 * request is not in the register. The caller forgets cached rows
 * (forgetRegisterEntries) once `tx` has committed.
 */
export async function applyServiceRecord(tx: RegisterTx, verificationId: string, record: VerificationRecord): Promise<string | null> {
  // FOR UPDATE: two updates of one id at once (a webhook and a page read) are serialised here,
  // so the terminal check below cannot be raced.
  const [row] = await tx
    .select({ status: verificationRequests.status, name: verificationRequests.name })
    .from(verificationRequests)
    .where(eq(verificationRequests.verificationId, verificationId))
    .for('update');
  if (!row) return null;
  if (TERMINAL_STATUSES.has(row.status) && row.status !== record.status) return row.status;
  await tx
    .update(verificationRequests)
    .set({
      status: record.status,
      // Reads alone (no webhooks configured) must also teach the register the identified name.
      identifiedName: record.identified_name,
      // Computed here, on write, so that "Needs review" is a plain query.
      nameMismatch: nameMismatchOf(record.status, row.name, record.identified_name),
      accessExpiresAt: new Date(record.access_expires_at),
      keptUntil: new Date(record.kept_until),
      // How the request ended, as the service reports it: codes and a date, kept so the register
      // and its overview can answer without asking the service again.
      completedAt: record.identified_date === null ? null : new Date(record.identified_date),
      method: record.verification_method,
      failureReason: record.failed_reason,
      // When the register last learnt something from the service (unchanged reads don't write).
      refreshedAt: new Date(),
    })
    .where(eq(verificationRequests.verificationId, verificationId));
  if (row.status !== record.status) {
    await recordAudit(
      {
        actorId: null,
        action: 'verification.status_changed',
        target: { type: 'verification', id: verificationId },
        details: { status: record.status, previous: row.status },
      },
      tx,
    );
  }
  return record.status;
}

/** Milliseconds since the epoch of an ISO timestamp, or null: compares a record's date with a row's. */
function timeOf(timestamp: string | null): number | null {
  return timestamp === null ? null : Date.parse(timestamp);
}

/**
 * The register row for a request the service has just created. Its address and number are not
 * kept, only their keyed hashes (contactDigestsOfRequest in contact-digest.server.ts).
 */
export function newRegisterEntry(
  verificationId: string,
  request: CreateVerificationRequest,
  link: string | null,
  contactDigests: string[] = [],
): typeof verificationRequests.$inferInsert {
  return {
    verificationId,
    name: request.name,
    purpose: request.chosenPurpose,
    language: request.language,
    shareableLink: request.shareableLink ?? false,
    emailNotification: request.shareableLink ? false : (request.emailNotification ?? true),
    smsNotification: request.smsNotification ?? false,
    link,
    contactDigests,
  };
}
