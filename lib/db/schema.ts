// The dashboard's own tables. The service has no list endpoint and returns a shareable link
// only once, so the dashboard keeps a register of the requests it created: the minimum staff
// need to find a request again (no e-mail address or phone number is kept here).
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const verificationRequests = pgTable(
  'verification_requests',
  {
    /** The service's verificationId: an opaque string, its format is not part of the contract. */
    verificationId: text('verification_id').primaryKey(),
    name: text('name').notNull(),
    purpose: text('purpose').notNull(),
    language: text('language').notNull(),
    shareableLink: boolean('shareable_link').notNull(),
    emailNotification: boolean('email_notification').notNull(),
    smsNotification: boolean('sms_notification').notNull(),
    /** Returned by the service once, at creation; kept so staff can copy it again until it expires. */
    link: text('link'),
    /** Last status the dashboard saw; the service stays the source of truth. */
    status: text('status').notNull().default('pending'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
    keptUntil: timestamp('kept_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  },
  (t) => [index('verification_requests_created_idx').on(t.createdAt)],
);

/**
 * One row per submitted create form, keyed by a random key the form carries. A second
 * submission with the same key (double click, resent no-JS POST) finds the row and gets the
 * first one's result instead of creating a second request upstream.
 */
export const createSubmissions = pgTable('create_submissions', {
  key: uuid('key').primaryKey(),
  verificationId: text('verification_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type VerificationRequestRow = typeof verificationRequests.$inferSelect;
