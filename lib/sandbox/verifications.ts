// Verification requests: creating one with its notifications (seed §4.1), reading it back as
// the record of seed §2.3, and finding it from the person's link.
import 'server-only';
import { eq } from 'drizzle-orm';
import type { CreateVerificationInput } from './create-verification-input';
import type { SandboxDb } from './db';
import { companies, outbox, verifications } from './schema';
import { generateSecret, hashSecret, SECRET_PATTERN } from './secrets';

export const CREATED_MESSAGE = 'Verification request created successfully.';

export type VerificationRow = typeof verifications.$inferSelect;

export type CreatedVerification = { verificationId: string; link: string; outboxRows: number };

/** The person's page; the token in it is a separate secret, never the verification id. */
export function personLink(baseUrl: string, token: string): string {
  return `${baseUrl}/sandbox/verify/${token}`;
}

/**
 * Creates the request and the messages it sends, in one transaction: a request whose
 * notification was lost (or a notification for a request that does not exist) cannot happen.
 * `link` is always built, because e-mail and SMS carry it too; the route decides whether the
 * caller gets to see it.
 */
export async function createVerification(
  db: SandboxDb,
  { companyId, input, baseUrl, now = new Date() }: {
    companyId: string;
    input: CreateVerificationInput;
    baseUrl: string;
    now?: Date;
  },
): Promise<CreatedVerification> {
  return db.transaction(async (tx) => {
    const [company] = await tx
      .select({
        tokenValiditySeconds: companies.tokenValiditySeconds,
        verificationRetentionSeconds: companies.verificationRetentionSeconds,
      })
      .from(companies)
      .where(eq(companies.id, companyId))
      .limit(1);
    if (!company) throw new Error(`company ${companyId} does not exist`);

    const id = crypto.randomUUID();
    const token = generateSecret();
    const link = personLink(baseUrl, token);
    await tx.insert(verifications).values({
      id,
      companyId,
      accessTokenHash: hashSecret(token),
      name: input.name,
      email: input.email ?? null,
      phoneNumber: input.phonenumber ?? null,
      language: input.language,
      purpose: input.chosenPurpose,
      shareableLink: input.shareableLink,
      emailNotification: input.emailNotification,
      smsNotification: input.smsNotification,
      status: 'pending',
      accessExpiresAt: new Date(now.getTime() + company.tokenValiditySeconds * 1000),
      keptUntil: new Date(now.getTime() + company.verificationRetentionSeconds * 1000),
      createdAt: now,
      updatedAt: now,
    });

    const messages = notificationsFor(input).map((message) => ({
      id: crypto.randomUUID(),
      companyId,
      verificationId: id,
      channel: message.channel,
      recipient: message.recipient,
      language: input.language,
      link,
      createdAt: now,
    }));
    if (messages.length > 0) await tx.insert(outbox).values(messages);
    return { verificationId: id, link, outboxRows: messages.length };
  });
}

/** Seed §4.1 rules 1-3: who is told, and how. */
export function notificationsFor(
  input: CreateVerificationInput,
): { channel: 'email' | 'sms'; recipient: string }[] {
  const messages: { channel: 'email' | 'sms'; recipient: string }[] = [];
  // With a shareable link the caller delivers it through its own channels, so no e-mail goes out.
  if (input.emailNotification && !input.shareableLink && input.email !== undefined) {
    messages.push({ channel: 'email', recipient: input.email });
  }
  // The SMS is independent of the shareable link: rule 3 has no exception for it.
  if (input.smsNotification && input.phonenumber !== undefined) {
    messages.push({ channel: 'sms', recipient: input.phonenumber });
  }
  return messages;
}

/** Seed §2.3, keys in the seed's order. */
export type VerificationRecord = {
  inputted_name: string;
  status: 'pending' | 'completed' | 'expired' | 'failed';
  purpose: string;
  access_expires_at: string;
  identified_name: string | null;
  identified_date: string | null;
  /**
   * The seed lists this as not nullable, but no method has been used while a request is
   * pending (nor when it expired untouched), so it is null until the person completes a
   * verification or it fails after a method was chosen. Inventing a method would be worse.
   */
  verification_method: string | null;
  failed_reason: string | null;
  kept_until: string;
};

/**
 * A request still pending after its access expired is reported as expired, even before the
 * expiry sweep has rewritten the row: the status must not depend on when a background job ran.
 */
export function effectiveStatus(
  row: Pick<VerificationRow, 'status' | 'accessExpiresAt'>,
  now: Date,
): VerificationRecord['status'] {
  const status = row.status as VerificationRecord['status'];
  return status === 'pending' && row.accessExpiresAt.getTime() <= now.getTime() ? 'expired' : status;
}

export function toVerificationRecord(row: VerificationRow, now: Date = new Date()): VerificationRecord {
  return {
    inputted_name: row.name,
    status: effectiveStatus(row, now),
    purpose: row.purpose,
    access_expires_at: row.accessExpiresAt.toISOString(),
    identified_name: row.identifiedName,
    identified_date: row.identifiedDate?.toISOString() ?? null,
    verification_method: row.verificationMethod,
    failed_reason: row.failedReason,
    kept_until: row.keptUntil.toISOString(),
  };
}

/** Data past kept_until is gone for the caller, whether or not the purge job has run yet. */
function isPurged(row: Pick<VerificationRow, 'keptUntil'>, now: Date): boolean {
  return row.keptUntil.getTime() <= now.getTime();
}

export type VerificationLookup =
  | { kind: 'found'; record: VerificationRecord }
  | { kind: 'not_found' }
  | { kind: 'forbidden' };

/** Seed §4.2: a record of another company is refused, an unknown (or purged) one is not found. */
export async function getVerificationForCompany(
  db: SandboxDb,
  { companyId, id, now = new Date() }: { companyId: string; id: string; now?: Date },
): Promise<VerificationLookup> {
  const [row] = await db.select().from(verifications).where(eq(verifications.id, id)).limit(1);
  if (!row || isPurged(row, now)) return { kind: 'not_found' };
  if (row.companyId !== companyId) return { kind: 'forbidden' };
  return { kind: 'found', record: toVerificationRecord(row, now) };
}

export type PersonRequest = {
  companyName: string;
  name: string;
  purpose: string;
  language: string;
  status: VerificationRecord['status'];
  accessExpiresAt: Date;
};

/** What the person's page needs, found by the token of the link; undefined for any unusable token. */
export async function getRequestByToken(
  db: SandboxDb,
  token: string,
  now: Date = new Date(),
): Promise<PersonRequest | undefined> {
  // A token of the wrong shape cannot exist: no need to ask the database.
  if (!SECRET_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ verification: verifications, companyName: companies.name })
    .from(verifications)
    .innerJoin(companies, eq(companies.id, verifications.companyId))
    .where(eq(verifications.accessTokenHash, hashSecret(token)))
    .limit(1);
  if (!row || isPurged(row.verification, now)) return undefined;
  const { verification } = row;
  return {
    companyName: row.companyName,
    name: verification.name,
    purpose: verification.purpose,
    language: verification.language,
    status: effectiveStatus(verification, now),
    accessExpiresAt: verification.accessExpiresAt,
  };
}
