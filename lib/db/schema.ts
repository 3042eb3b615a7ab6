// The dashboard's own tables. The service has no list endpoint and returns a shareable link
// only once, so the dashboard keeps a register of the requests it created: the minimum staff
// need to find a request again (no e-mail address or phone number is kept here).
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { STAFF_ROLES } from '@/lib/auth/roles';
import { NAME_REVIEW_DECISIONS } from '@/lib/verifications/name-review-labels';

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
    /** The name read from the identity document, once completed (shown beside the requested one). */
    identifiedName: text('identified_name'),
    /**
     * For a completed request: whether the identified name differs from the requested one
     * (lib/verifications/name-match.ts), computed when the register learns the name, so that
     * "Needs review" is a query. Null while not completed, and for rows not refreshed since.
     */
    nameMismatch: boolean('name_mismatch'),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
    keptUntil: timestamp('kept_until', { withTimezone: true }),
    /** The staff member who created it (ids only: no names or e-mails in the register). */
    createdBy: text('created_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    refreshedAt: timestamp('refreshed_at', { withTimezone: true }),
  },
  (t) => [
    index('verification_requests_created_idx').on(t.createdAt),
    index('verification_requests_kept_until_idx').on(t.keptUntil),
    index('verification_requests_status_idx').on(t.status, t.accessExpiresAt),
    index('verification_requests_created_by_idx').on(t.createdBy, t.createdAt),
    // "Needs review" reads only the few completed requests whose names differ.
    index('verification_requests_name_mismatch_idx').on(t.createdAt).where(sql`${t.nameMismatch}`),
  ],
);

/**
 * Staff's decision on a completed request whose identified name differs from the requested one:
 * one row per request, the latest decision (each change is also in the audit trail). Goes with
 * its register row when that is purged.
 */
export const nameReviews = pgTable('name_reviews', {
  verificationId: text('verification_id')
    .primaryKey()
    .references(() => verificationRequests.verificationId, { onDelete: 'cascade' }),
  decision: text('decision', { enum: NAME_REVIEW_DECISIONS }).notNull(),
  /** Why, in staff's words (kept here only, never in the audit trail: it may name people). */
  note: text('note').notNull(),
  decidedBy: text('decided_by').references(() => staffUsers.id, { onDelete: 'set null' }),
  decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
});

export type NameReviewRow = typeof nameReviews.$inferSelect;

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

// ── Staff accounts (better-auth's four tables, under names that say what they hold) ──────────

export const staffUsers = pgTable('staff_users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  role: text('role', { enum: STAFF_ROLES }).notNull().default('viewer'),
  /** A disabled account cannot sign in and has no sessions. Accounts are never deleted: the audit trail refers to them. */
  disabled: boolean('disabled').notNull().default(false),
  /** Whether sign-in asks for a second factor (better-auth's two-factor plugin sets it once enrolment is confirmed). */
  twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    userId: text('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_sessions_user_idx').on(t.userId)],
);

export const staffAccounts = pgTable(
  'staff_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    /** Password hash (scrypt, by better-auth). */
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_accounts_user_idx').on(t.userId)],
);

/**
 * A staff member's second factor (better-auth's two-factor plugin): the TOTP secret and the
 * backup codes, both encrypted with the auth secret. `verified` stays false until the first code
 * is confirmed at enrolment; the failure count and lock are its limit on wrong codes.
 */
export const staffTwoFactors = pgTable(
  'staff_two_factors',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    secret: text('secret').notNull(),
    backupCodes: text('backup_codes').notNull(),
    verified: boolean('verified').notNull().default(true),
    failedVerificationCount: integer('failed_verification_count').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [index('staff_two_factors_user_idx').on(t.userId)],
);

export const authVerifications = pgTable('auth_verifications', {
  id: text('id').primaryKey(),
  identifier: text('identifier').notNull(),
  value: text('value').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Sign-in throttling (lib/auth/throttle.ts): one row per counter, keyed by a keyed hash of an
 * account, a client network, or both (no e-mail or IP address is stored). `count` failures (or,
 * for a known pair, successes) since `windowStartedAt`, the latest at `lastAt`; a row whose
 * `expiresAt` has passed no longer counts and is removed.
 */
export const signInThrottle = pgTable(
  'sign_in_throttle',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_throttle_expires_idx').on(t.expiresAt)],
);

/** The one-time first-run token (hashed); it exists only while there is no staff account. */
export const setupTokens = pgTable('setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Invitations (lib/staff/invitations.ts): a one-time link an administrator hands a new colleague,
 * who sets their own password there. Only the SHA-256 of the link's random token is kept. A newer
 * invitation for the same account deletes the unused older ones; a used one stays, so its link
 * can say it was used.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The administrator who issued it; null when issued from the command line. */
    issuedBy: text('issued_by').references(() => staffUsers.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_invitations_user_idx').on(t.userId)],
);

// ── Audit trail: who did what to which id, when. Ids only, never names, e-mails or phones. ──

export const auditEntries = pgTable(
  'audit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Staff user id; null when nobody is signed in (e.g. a failed sign-in for an unknown account). */
    actorId: text('actor_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** Codes only (e.g. {"role":"operator"}); never personal data. */
    details: jsonb('details').$type<Record<string, string | number | boolean>>(),
  },
  (t) => [
    index('audit_entries_at_idx').on(t.at),
    index('audit_entries_actor_idx').on(t.actorId, t.at),
    index('audit_entries_action_idx').on(t.action, t.at),
  ],
);

export type StaffUserRow = typeof staffUsers.$inferSelect;
export type AuditEntryRow = typeof auditEntries.$inferSelect;

/**
 * Webhook deliveries received from the service, by their `webhook-id`: a duplicate (the sender
 * retrying, or two copies at once) finds its id here and is not processed again.
 */
export const webhookReceipts = pgTable('webhook_receipts', {
  webhookId: text('webhook_id').primaryKey(),
  eventType: text('event_type').notNull(),
  verificationId: text('verification_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

// ── What several instances on one PostgreSQL server share (also used on the embedded store) ──

/**
 * The live log of status changes (lib/live/bus.ts): every instance's open streams are fed from
 * it, in id order. Ids are handed out under a lock, so they increase in commit order and an
 * instance that missed notifications reads `id > last seen` to catch up; a browser's
 * Last-Event-ID replays on any instance. Ids and a status only; old rows are purged.
 */
export const liveEvents = pgTable(
  'live_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    verificationId: text('verification_id').notNull(),
    status: text('status').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('live_events_at_idx').on(t.at)],
);

/**
 * Events counted by the shared rate limits (lib/platform/shared-rate-limit.ts): one row per
 * allowed event of a key (e.g. a staff member's creates) inside its sliding window. `eventId`
 * makes a repeat of one event (a double submission) free.
 */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    eventId: text('event_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_events_key_at_idx').on(t.key, t.at)],
);

/**
 * One row per periodic job (lib/platform/periodic-jobs.ts): whichever instance claims the row
 * when the job is due runs it, so a job runs once per period however many instances there are.
 * `leasedUntil` keeps a run that outlasts its period from starting again elsewhere; a run whose
 * instance died frees the job when the lease ends.
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  leasedUntil: timestamp('leased_until', { withTimezone: true }),
  /** The instance that last ran it (host and pid), for an operator reading the table. */
  lastRunBy: text('last_run_by'),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
});
