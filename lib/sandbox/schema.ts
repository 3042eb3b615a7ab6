// Tables of the embedded sandbox service. They live in their own Postgres schema so the
// sandbox stays a separate service that merely shares the process's database connection.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const sandbox = pgSchema('sandbox');

const DAY = 24 * 60 * 60;

export const companies = sandbox.table('companies', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  /** The company the zero-config dashboard is wired to. */
  isDefault: boolean('is_default').notNull().default(false),
  tokenValiditySeconds: integer('token_validity_seconds')
    .notNull()
    .default(7 * DAY),
  verificationRetentionSeconds: integer('verification_retention_seconds')
    .notNull()
    .default(30 * DAY),
  auditLogRetentionSeconds: integer('audit_log_retention_seconds')
    .notNull()
    .default(90 * DAY),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const apiKeys = sandbox.table(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** SHA-256 of the key, hex. The key itself is shown once and never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** First characters of the key, so staff can tell keys apart. */
    prefix: text('prefix').notNull(),
    label: text('label').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_company_idx').on(t.companyId)],
);

export const verifications = sandbox.table(
  'verifications',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** SHA-256 of the person's access token (the last part of the shareable link). */
    accessTokenHash: text('access_token_hash').notNull().unique(),
    name: text('name').notNull(),
    email: text('email'),
    phoneNumber: text('phone_number'),
    language: text('language').notNull(),
    purpose: text('purpose').notNull(),
    shareableLink: boolean('shareable_link').notNull(),
    emailNotification: boolean('email_notification').notNull(),
    smsNotification: boolean('sms_notification').notNull(),
    status: text('status').notNull().default('pending'),
    identifiedName: text('identified_name'),
    identifiedDate: timestamp('identified_date', { withTimezone: true }),
    verificationMethod: text('verification_method'),
    failedReason: text('failed_reason'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    keptUntil: timestamp('kept_until', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('verifications_company_idx').on(t.companyId),
    index('verifications_pending_expiry_idx').on(t.accessExpiresAt).where(sql`status = 'pending'`),
    index('verifications_kept_until_idx').on(t.keptUntil),
  ],
);

/** Messages the service would send to the person. Real delivery comes with SMTP; until then they wait here. */
export const outbox = sandbox.table(
  'outbox',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    verificationId: uuid('verification_id')
      .notNull()
      .references(() => verifications.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    language: text('language').notNull(),
    link: text('link').notNull(),
    /**
     * What the message says, as composed for the person in `language` (notifications.ts): the
     * e-mail's subject (null for an SMS) and its plain text, or the SMS. Sandbox test data, kept
     * so staff can read what the person received; null for messages written before it was kept.
     */
    subject: text('subject'),
    body: text('body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);

/** Where a company wants its webhook events; each endpoint signs with its own secret. */
export const webhookEndpoints = sandbox.table(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** Standard Webhooks secret (`whsec_…`). Kept in clear: the sandbox needs it to sign. */
    secret: text('secret').notNull(),
    /** Set for the endpoint provisioned for the zero-config dashboard; replaced at each start. */
    isDefault: boolean('is_default').notNull().default(false),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_company_idx').on(t.companyId)],
);

/** One event (`verification.completed`, …) to deliver to every endpoint of its company. */
export const webhookMessages = sandbox.table(
  'webhook_messages',
  {
    /** The `webhook-id` header: the same for every attempt, so receivers can drop duplicates. */
    id: text('id').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_messages_company_idx').on(t.companyId, t.createdAt)],
);

/** The durable delivery queue: one row per message and endpoint, retried with backoff. */
export const webhookDeliveries = sandbox.table(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set while a worker is sending it, so two workers never send the same delivery at once. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt)],
);

/** Every attempt of every delivery, for the webhooks page. */
export const webhookAttempts = sandbox.table(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
    responseStatus: integer('response_status'),
    /** A short reason when no HTTP answer came (timeout, refused); never a response body. */
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);

/** The service's own API audit log (contract §1): kept for the company's audit-log retention. */
export const apiAuditLog = sandbox.table(
  'api_audit_log',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    method: text('method').notNull(),
    /** The route, with the verification id (ids only, no personal data). */
    path: text('path').notNull(),
    status: integer('status').notNull(),
  },
  (t) => [index('api_audit_log_company_at_idx').on(t.companyId, t.at)],
);

/**
 * One row per background job of the sandbox (records/jobs.ts, run by lib/platform/periodic-jobs.ts):
 * whichever instance claims the row when the job is due runs it, so the expiry sweep and the
 * purges run once per period however many instances share the database. The dashboard has its
 * own table of the same shape: neither half reads the other's tables.
 */
export const jobLeases = sandbox.table('job_leases', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  leasedUntil: timestamp('leased_until', { withTimezone: true }),
  /** The instance that last ran it (host and pid), for an operator reading the table. */
  lastRunBy: text('last_run_by'),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
});
