// Staff accounts: better-auth's four tables under names that say what they hold, the second
// factor, sign-in throttling, the first-run token and invitations.
import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { STAFF_ROLES } from './staff-roles';

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
  /** The dashboard's language the staff member chose (lib/i18n/languages.ts), or null: their browser's then. */
  language: text('language'),
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
 * `expiresAt` has passed no longer counts and is removed. A `second-factor-check:` row is the
 * lease of one account's second-factor check (lib/auth/two-factor/check-lease.ts), `count`
 * holding its holder's random number.
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
 * Invitations (lib/staff/invitations): a one-time link an administrator hands a new colleague,
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

export type StaffUserRow = typeof staffUsers.$inferSelect;
