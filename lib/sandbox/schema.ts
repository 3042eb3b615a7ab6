// Tables of the embedded sandbox service. They live in their own Postgres schema so the
// sandbox stays a separate service that merely shares the process's database connection.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const sandbox = pgSchema('sandbox');

const DAY = 24 * 60 * 60;

export const companies = sandbox.table('companies', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  /** The company the zero-config dashboard is wired to. */
  isDefault: boolean('is_default').notNull().default(false),
  tokenValiditySeconds: integer('token_validity_seconds').notNull().default(7 * DAY),
  verificationRetentionSeconds: integer('verification_retention_seconds').notNull().default(30 * DAY),
  auditLogRetentionSeconds: integer('audit_log_retention_seconds').notNull().default(90 * DAY),
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_created_idx').on(t.createdAt)],
);
