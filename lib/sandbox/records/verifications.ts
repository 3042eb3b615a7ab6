// Verification requests: creating one with its notifications and its event (contract §4.1),
// reading it back as the record of contract §2.3, and finding it from the person's link.
import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { rowsOf } from '@/lib/platform/database';
import { logger } from '@/lib/platform/log';
import type { CreateVerificationInput, Language } from '@/lib/sandbox/api/create-verification-input';
import type { SandboxDb } from '@/lib/sandbox/db';
import { companies, outbox, verifications } from '@/lib/sandbox/schema';
import { generateSecret, hashSecret, SECRET_PATTERN } from '@/lib/sandbox/secrets';
import { verificationEventInserts } from '@/lib/sandbox/webhook-sender/enqueue';
import { kickWebhookDelivery } from '@/lib/sandbox/webhook-sender/worker';
import { expireVerificationIfDue, isExpiryDue } from './lifecycle';
import { type NotificationFacts, outboxText } from './notifications';
import { outboxInsert } from './outbox';
import { recordCacheOf } from './record-cache';

const log = logger.child({ area: 'sandbox' });

export const CREATED_MESSAGE = 'Verification request created successfully.';

export type VerificationRow = typeof verifications.$inferSelect;

/** An e-mail to send through SMTP once the creation has committed (see notifications.ts). */
export type PendingEmail = {
  companyId: string;
  verificationId: string;
  recipient: string;
  language: Language;
  link: string;
  companyName: string;
  name: string;
  purpose: string;
  accessExpiresAt: Date;
};

export type CreatedVerification = {
  verificationId: string;
  link: string;
  /** Webhook deliveries queued for the `verification.created` event. */
  deliveries: number;
  /** Messages written to the outbox in the creation's transaction. */
  outboxRows: number;
  /** E-mails left to the SMTP delivery that follows the commit; empty unless `emailBySmtp`. */
  emails: PendingEmail[];
};

/** The person's page; the token in it is a separate secret, never the verification id. */
export function personLink(baseUrl: string, token: string): string {
  return `${baseUrl}/sandbox/verify/${token}`;
}

/**
 * Creates the request, its `verification.created` event and the outbox messages, as one
 * statement (a data-modifying WITH, which Postgres runs atomically): a request without its event
 * or notification (or the reverse) cannot happen. One round trip instead of the five of a
 * transaction that read the company first (BEGIN, read, two writes, COMMIT): the company's
 * periods are read inside the statement.
 * With `emailBySmtp` the e-mail is not put in the outbox but returned, for the caller to send
 * after the commit: a slow or broken mail server must never hold (or roll back) the creation.
 * `link` is always built, because e-mail and SMS carry it too; the route decides whether the
 * caller gets to see it.
 */
export async function createVerification(
  db: SandboxDb,
  {
    companyId,
    input,
    baseUrl,
    now = new Date(),
    emailBySmtp = false,
  }: {
    companyId: string;
    input: CreateVerificationInput;
    baseUrl: string;
    now?: Date;
    emailBySmtp?: boolean;
  },
): Promise<CreatedVerification> {
  const id = crypto.randomUUID();
  const token = generateSecret();
  const link = personLink(baseUrl, token);
  // The company's row is read once, as the statement's first part (`company`, below). Its periods
  // set the dates; for an unknown company they are null, so the NOT NULL columns refuse the row
  // and the whole statement fails (a 500 upstream).
  const after = (column: AnyPgColumn) =>
    sql`${now.toISOString()}::timestamptz + make_interval(secs => (select ${sql.identifier(column.name)} from company))`;
  const insertVerification = db
    .insert(verifications)
    .values({
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
      accessExpiresAt: after(companies.tokenValiditySeconds),
      keptUntil: after(companies.verificationRetentionSeconds),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ accessExpiresAt: verifications.accessExpiresAt });

  const planned = notificationsFor(input);
  // SMS has no real delivery in the sandbox: it always lands in the outbox.
  const viaSmtp = planned.filter((message) => emailBySmtp && message.channel === 'email');
  const toOutbox = planned.filter((message) => !viaSmtp.includes(message));
  const outboxRows = toOutbox.map((message) => ({
    companyId,
    verificationId: id,
    channel: message.channel,
    recipient: message.recipient,
    language: input.language,
    link,
    createdAt: now,
  }));
  const event = verificationEventInserts(db, { companyId, verificationId: id, type: 'verification.created', status: 'pending', now });

  const parts = [
    sql`company as (select ${companies.name}, ${companies.tokenValiditySeconds}, ${companies.verificationRetentionSeconds} from ${companies} where ${companies.id} = ${companyId})`,
    sql`verification as (${insertVerification.getSQL()})`,
  ];
  if (outboxRows.length > 0) parts.push(sql`messages as (${outboxInsert(db, outboxRows).getSQL()})`);
  parts.push(sql`event as (${event.message})`, sql`deliveries as (${event.deliveries})`);
  const result = await db.execute(sql`
    with ${sql.join(parts, sql`, `)}
    select verification.access_expires_at, company.${sql.identifier(companies.name.name)} as company_name,
      (select count(*)::int from deliveries) as deliveries
    from verification, company`);
  const [row] = rowsOf<{ access_expires_at: Date | string; company_name: string; deliveries: number }>(result);
  if (!row) throw new Error(`verification ${id} was not created`);
  const accessExpiresAt = new Date(row.access_expires_at);
  const facts: NotificationFacts = {
    language: input.language,
    link,
    companyName: row.company_name,
    name: input.name,
    purpose: input.chosenPurpose,
    accessExpiresAt,
  };
  // What the outbox's messages say. Composed now that the statement has told the company's name
  // and the link's deadline; kept for staff to read on the outbox page.
  if (toOutbox.length > 0) await keepOutboxText(db, id, toOutbox, facts);

  const created: CreatedVerification = {
    verificationId: id,
    link,
    deliveries: Number(row.deliveries),
    outboxRows: toOutbox.length,
    emails: viaSmtp.map((message) => ({
      companyId,
      verificationId: id,
      recipient: message.recipient,
      ...facts,
    })),
  };
  // Committed: the `verification.created` event can go out now rather than at the worker's next
  // tick. Without an endpoint there is nothing to send, and a delivery pass would only cost a query.
  if (created.deliveries > 0) kickWebhookDelivery();
  return created;
}

/**
 * Writes the text of a new request's outbox messages. Never throws: the request and its messages
 * are committed, and the caller must get its answer; a message whose text could not be kept shows
 * without it.
 */
async function keepOutboxText(
  db: SandboxDb,
  verificationId: string,
  messages: { channel: 'email' | 'sms' }[],
  facts: NotificationFacts,
): Promise<void> {
  try {
    for (const { channel } of messages) {
      await db
        .update(outbox)
        .set(outboxText(channel, facts))
        .where(and(eq(outbox.verificationId, verificationId), eq(outbox.channel, channel)));
    }
  } catch (error) {
    log.warn({ verificationId, error: error instanceof Error ? error.name : 'unknown' }, 'outbox text not kept');
  }
}

/** Contract §4.1 rules 1-3: who is told, and how. */
export function notificationsFor(input: CreateVerificationInput): { channel: 'email' | 'sms'; recipient: string }[] {
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

/** Contract §2.3, keys in the contract's order. */
export type VerificationRecord = {
  inputted_name: string;
  status: 'pending' | 'completed' | 'expired' | 'failed';
  purpose: string;
  access_expires_at: string;
  identified_name: string | null;
  identified_date: string | null;
  /**
   * The contract lists this as not nullable, but no method has been used while a request is
   * pending, nor when it expired or failed (a failure records its reason, not a method), so it
   * is null until the person completes a verification. Inventing a method would be worse.
   */
  verification_method: string | null;
  failed_reason: string | null;
  kept_until: string;
};

export function toVerificationRecord(row: VerificationRow): VerificationRecord {
  return {
    inputted_name: row.name,
    status: row.status as VerificationRecord['status'],
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

/**
 * Reads a verification after making its expiry real: a pending request whose access has
 * expired is expired here (with its one `verification.expired` event, exactly as the sweeper
 * would do it), so what a reader sees never depends on when the sweeper last ran and every
 * reported state exists in the database. The expiry moves kept_until, hence it comes first.
 */
async function readSettled<Row extends { verification: VerificationRow }>(
  db: SandboxDb,
  read: () => Promise<Row | undefined>,
  now: Date,
): Promise<Row | undefined> {
  let row = await read();
  if (row && isExpiryDue(row.verification, now)) {
    await expireVerificationIfDue(db, { verificationId: row.verification.id, now });
    row = await read();
  }
  return row && !isPurged(row.verification, now) ? row : undefined;
}

/** One verification by id, from the record cache when it holds it (see record-cache.ts). */
async function readById(db: SandboxDb, id: string): Promise<{ verification: VerificationRow } | undefined> {
  const cache = recordCacheOf(db);
  const cached = cache.get(id);
  if (cached) return { verification: cached };
  const readAt = cache.generation();
  const [verification] = await db.select().from(verifications).where(eq(verifications.id, id)).limit(1);
  if (!verification) return undefined;
  cache.store(id, verification, readAt);
  return { verification };
}

export type VerificationLookup = { kind: 'found'; record: VerificationRecord } | { kind: 'not_found' } | { kind: 'forbidden' };

/** Contract §4.2: a record of another company is refused, an unknown (or purged) one is not found. */
export async function getVerificationForCompany(
  db: SandboxDb,
  { companyId, id, now = new Date() }: { companyId: string; id: string; now?: Date },
): Promise<VerificationLookup> {
  const row = await readSettled(db, () => readById(db, id), now);
  if (!row) return { kind: 'not_found' };
  if (row.verification.companyId !== companyId) return { kind: 'forbidden' };
  return { kind: 'found', record: toVerificationRecord(row.verification) };
}

export type PersonRequest = {
  verificationId: string;
  companyName: string;
  name: string;
  purpose: string;
  language: string;
  status: VerificationRecord['status'];
  accessExpiresAt: Date;
  verificationMethod: string | null;
  failedReason: string | null;
};

/** What the person's page needs, found by the token of the link; undefined for any unusable token. */
export async function getRequestByToken(db: SandboxDb, token: string, now: Date = new Date()): Promise<PersonRequest | undefined> {
  // A token of the wrong shape cannot exist: no need to ask the database.
  if (!SECRET_PATTERN.test(token)) return undefined;
  const tokenHash = hashSecret(token);
  const row = await readSettled(
    db,
    async () => {
      const [found] = await db
        .select({ verification: verifications, companyName: companies.name })
        .from(verifications)
        .innerJoin(companies, eq(companies.id, verifications.companyId))
        .where(eq(verifications.accessTokenHash, tokenHash))
        .limit(1);
      return found;
    },
    now,
  );
  if (!row) return undefined;
  const { verification } = row;
  return {
    verificationId: verification.id,
    companyName: row.companyName,
    name: verification.name,
    purpose: verification.purpose,
    language: verification.language,
    status: verification.status as VerificationRecord['status'],
    accessExpiresAt: verification.accessExpiresAt,
    verificationMethod: verification.verificationMethod,
    failedReason: verification.failedReason,
  };
}
