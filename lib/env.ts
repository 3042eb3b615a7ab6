// The dashboard's configuration: one zod-validated reading of process.env. Read lazily (not at
// import time, `next build` imports every route) and after instrumentation has had its say:
// in zero-config mode it fills in the sandbox's URL and key before the first request.
import 'server-only';
import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/min';
import { z } from 'zod';
import { parseEd25519PrivateKey } from './platform/ed25519-private-key';
import { blankAsUnset } from './platform/env-values';
import { logLevelSchema } from './platform/log';
import { canonicalTimeZone } from './platform/time-zone-name';
import { webhookSecretsSchema } from './platform/webhook-secrets';

const envSchema = z.object({
  VERIFICATION_API_URL: z.preprocess(
    blankAsUnset,
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://verify.example.com' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
  ),
  VERIFICATION_API_KEY: z.preprocess(blankAsUnset, z.string().min(1).optional()),
  VERIFICATION_API_TIMEOUT_MS: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(100, 'must be at least 100 ms')
      .max(120_000, 'must be at most 120000 ms (2 minutes)')
      .default(10_000),
  ),
  DATA_DIR: z.preprocess(blankAsUnset, z.string().default('./data')),
  // A PostgreSQL server shared by every instance (lib/platform/database.ts); unset, the
  // embedded database in DATA_DIR serves one process.
  DATABASE_URL: z.preprocess(
    blankAsUnset,
    z
      .string()
      .refine((value) => /^postgres(ql)?:\/\/[^\s]+$/.test(value), {
        error: 'must be a PostgreSQL connection URL, e.g. postgres://desk:secret@db.internal:5432/desk',
      })
      .optional(),
  ),
  // Connections each instance's pool may open (one more is its listener for cross-instance signals).
  DATABASE_POOL_MAX: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of connections' })
      .int('must be a whole number of connections')
      .min(1, 'must be at least 1')
      .max(500, 'must be at most 500')
      .default(10),
  ),
  APP_URL: z.preprocess(
    blankAsUnset,
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, e.g. https://desk.example.com' }).optional(),
  ),
  PORT: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a port number' })
      .int('must be a port number')
      .min(1, 'must be between 1 and 65535')
      .max(65_535, 'must be between 1 and 65535')
      .default(3000),
  ),
  SANDBOX: z.preprocess(blankAsUnset, z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).optional()),
  BETTER_AUTH_SECRET: z.preprocess(
    blankAsUnset,
    z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)').optional(),
  ),
  SESSION_IDLE_HOURS: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of hours' })
      .positive('must be more than 0')
      .max(24 * 30, 'must be at most 720 (30 days)')
      .default(12),
  ),
  AUDIT_RETENTION_DAYS: z.preprocess(
    blankAsUnset,
    z.coerce.number({ error: 'must be a number of days' }).int('must be a whole number of days').min(1, 'must be at least 1').default(365),
  ),
  // The Ed25519 key that signs the audit chain's checkpoints (lib/audit/chain). Checked here, so
  // that a key that cannot sign stops start-up rather than the first checkpoint.
  AUDIT_SIGNING_KEY: z.preprocess(
    blankAsUnset,
    z
      .string()
      .refine(
        (value) => {
          try {
            parseEd25519PrivateKey(value);
            return true;
          } catch {
            return false;
          }
        },
        { error: 'must be an Ed25519 private key: a PKCS#8 PEM or the base64 of its DER bytes (see docs/audit-chain.md)' },
      )
      .optional(),
  ),
  // A checkpoint is signed once this many entries were written since the last, or once
  // AUDIT_CHECKPOINT_MINUTES have passed with any written: whichever comes first.
  AUDIT_CHECKPOINT_ENTRIES: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of entries' })
      .int('must be a whole number of entries')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000')
      .default(1000),
  ),
  AUDIT_CHECKPOINT_MINUTES: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1')
      .max(24 * 60, 'must be at most 1440 (a day)')
      .default(15),
  ),
  // After how many days a pending request needs someone's attention (the queue, lib/verifications/queue).
  QUEUE_PENDING_DAYS: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(1, 'must be at least 1')
      .max(365, 'must be at most 365')
      .default(3),
  ),
  // For how many days from its creation a failed or expired request that nobody followed up stays
  // in the queue. Past it, the request is taken as closed: the register still lists it.
  QUEUE_FOLLOW_UP_DAYS: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of days' })
      .int('must be a whole number of days')
      .min(1, 'must be at least 1')
      .max(365, 'must be at most 365')
      .default(30),
  ),
  WEBHOOK_SECRET: z.preprocess(blankAsUnset, webhookSecretsSchema),
  // Verification requests one staff member may create per minute (lib/verifications/create/rate-limit.server.ts).
  CREATE_RATE_LIMIT_PER_MINUTE: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of requests per minute' })
      .int('must be a whole number of requests per minute')
      .min(1, 'must be at least 1')
      .max(10_000, 'must be at most 10000')
      .default(30),
  ),
  // Reads of one verification (app/api/verifications/[id]) one staff member may make per minute
  // (lib/verifications/record/read-rate-limit.server.ts): each is a call against the service key's quota.
  READ_RATE_LIMIT_PER_MINUTE: z.preprocess(
    blankAsUnset,
    z.coerce
      .number({ error: 'must be a number of reads per minute' })
      .int('must be a whole number of reads per minute')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000')
      .default(120),
  ),
  // Whether every password account must enrol a second factor before using anything
  // (lib/auth/two-factor/requirement.ts); accounts that sign in only through SSO are exempt.
  REQUIRE_2FA: z.preprocess(blankAsUnset, z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).default('off')),
  // Four eyes on a name mismatch (lib/verifications/review/name-review.server.ts): accepting
  // differing names as the same person needs someone other than the request's creator.
  REVIEW_FOUR_EYES: z.preprocess(blankAsUnset, z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).default('on')),
  LOG_LEVEL: logLevelSchema,
  // Single sign-on through the company's OpenID Connect provider (lib/auth/single-sign-on.ts):
  // all three of ISSUER, CLIENT_ID and CLIENT_SECRET, or none (see crossFieldProblems).
  OIDC_ISSUER: z.preprocess(
    blankAsUnset,
    z
      .url({ protocol: /^https?$/, error: 'must be the issuer URL of the OpenID Connect provider, e.g. https://login.example.com' })
      .refine(isSecureOrLoopback, { error: 'must be an https URL (plain http only on loopback, for tests)' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
  ),
  OIDC_CLIENT_ID: z.preprocess(blankAsUnset, z.string().max(500, 'must be at most 500 characters').optional()),
  OIDC_CLIENT_SECRET: z.preprocess(blankAsUnset, z.string().optional()),
  OIDC_LABEL: z.preprocess(
    blankAsUnset,
    z.string().trim().max(80, 'must be at most 80 characters (it is the text of a button)').default('Sign in with single sign-on'),
  ),
  // The zone every staff member sees times and date filters in (lib/time); unset, each sees their
  // browser's own. A name the runtime does not know would show every time wrong, so it stops the server.
  DISPLAY_TIME_ZONE: z.preprocess(
    blankAsUnset,
    z
      .string()
      .transform((name, ctx) => {
        const zone = canonicalTimeZone(name.trim());
        if (zone === undefined) {
          ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone name, e.g. Europe/Brussels, America/New_York or UTC' });
          return z.NEVER;
        }
        return zone;
      })
      .optional(),
  ),
  // The country whose national numbers the SMS field accepts ("0470 12 34 56" as +32 470 12 34 56
  // when BE); unset, numbers must carry their country code.
  DEFAULT_PHONE_REGION: z.preprocess(
    blankAsUnset,
    z
      .string()
      .transform((code, ctx) => {
        const region = code.trim().toUpperCase();
        if (!isSupportedCountry(region)) {
          ctx.addIssue({ code: 'custom', message: 'must be a two-letter country code, e.g. BE, NL, FR or LU' });
          return z.NEVER;
        }
        return region as CountryCode;
      })
      .optional(),
  ),
  // off: single sign-on is the only way in (the break-glass link aside); requires OIDC_*.
  PASSWORD_SIGN_IN: z.preprocess(blankAsUnset, z.enum(['on', 'off'], { error: 'must be "on" or "off"' }).default('on')),
});

/** An issuer must be reached over TLS; plain http is for a provider on this very machine (tests). */
function isSecureOrLoopback(value: string): boolean {
  // Not a URL at all: the URL check above already says so.
  if (!URL.canParse(value)) return true;
  const url = new URL(value);
  if (url.protocol === 'https:') return true;
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

export type Env = z.infer<typeof envSchema>;

export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InvalidEnvironmentError';
  }
}

/**
 * Rules that tie variables together. With a PostgreSQL server several instances share one set
 * of sessions, and a cookie signed by one must be accepted by the others: each instance
 * generating a secret of its own into its data directory would sign every other instance's
 * staff out. So the secret must come from the environment, the same on every instance; and so must
 * the audit chain's signing key, or an auditor would need one public key per instance.
 */
function crossFieldProblems(source: Record<string, string | undefined>): string[] {
  const problems: string[] = [];
  if (blankAsUnset(source.DATABASE_URL) !== undefined && blankAsUnset(source.BETTER_AUTH_SECRET) === undefined) {
    problems.push(
      'BETTER_AUTH_SECRET is required with DATABASE_URL: every instance must sign sessions with the same secret (e.g. `openssl rand -base64 32`)',
    );
  }
  if (blankAsUnset(source.DATABASE_URL) !== undefined && blankAsUnset(source.AUDIT_SIGNING_KEY) === undefined) {
    problems.push(
      "AUDIT_SIGNING_KEY is required with DATABASE_URL: every instance must sign the audit trail's checkpoints with the same key (e.g. `openssl genpkey -algorithm ed25519 -outform DER | base64 -w0`; docs/audit-chain.md)",
    );
  }
  problems.push(...singleSignOnProblems(source));
  return problems;
}

const OIDC_SETTINGS = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

/**
 * Single sign-on needs the issuer, the client's id and its secret together: one missing would
 * leave a button that can only fail. Turning password sign-in off without it would lock
 * everybody out, so the server refuses to start instead.
 */
function singleSignOnProblems(source: Record<string, string | undefined>): string[] {
  const missing = OIDC_SETTINGS.filter((name) => blankAsUnset(source[name]) === undefined);
  if (missing.length > 0 && missing.length < OIDC_SETTINGS.length) {
    return [
      `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} required with ${OIDC_SETTINGS.filter((name) => !missing.includes(name)).join(' and ')}: single sign-on needs all three of ${OIDC_SETTINGS.join(', ')}`,
    ];
  }
  if (missing.length > 0 && source.PASSWORD_SIGN_IN?.trim() === 'off') {
    return [
      'PASSWORD_SIGN_IN=off requires single sign-on: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET, or nobody could sign in',
    ];
  }
  return [];
}

/** Parses an environment; every bad variable is named in the error. Values are never echoed. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  const problems = [
    ...(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`)),
    ...crossFieldProblems(source),
  ];
  if (problems.length > 0 || !result.success) throw new InvalidEnvironmentError(problems);
  return result.data;
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Forget the cached reading: instrumentation calls this after it fills in the sandbox's settings. */
export function resetEnv(): void {
  cached = undefined;
}

/** The service the dashboard talks to; both values are required by the time a request is served. */
export function getServiceConfig(): { baseUrl: string; apiKey: string; timeoutMs: number } {
  const env = getEnv();
  if (!env.VERIFICATION_API_URL || !env.VERIFICATION_API_KEY) {
    throw new InvalidEnvironmentError([
      !env.VERIFICATION_API_URL
        ? 'VERIFICATION_API_URL is not set (leave it unset only to use the embedded sandbox)'
        : 'VERIFICATION_API_KEY is not set (required together with VERIFICATION_API_URL)',
    ]);
  }
  return { baseUrl: env.VERIFICATION_API_URL, apiKey: env.VERIFICATION_API_KEY, timeoutMs: env.VERIFICATION_API_TIMEOUT_MS };
}

/** The company's OpenID Connect provider, or null when single sign-on is not configured. */
export function getSingleSignOnConfig(): { issuer: string; clientId: string; clientSecret: string; label: string } | null {
  const env = getEnv();
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return null;
  return { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET, label: env.OIDC_LABEL };
}

/** Whether staff may sign in with e-mail and password (PASSWORD_SIGN_IN, on unless turned off). */
export function isPasswordSignInEnabled(): boolean {
  return getEnv().PASSWORD_SIGN_IN === 'on';
}

/** Whether "same person" needs a second staff member besides the request's creator (REVIEW_FOUR_EYES, on unless turned off). */
export function isReviewFourEyesEnabled(): boolean {
  return getEnv().REVIEW_FOUR_EYES === 'on';
}

/** The secrets a webhook delivery may be signed with (several during a rotation); empty when unset. */
export function getWebhookSecrets(): string[] {
  return getEnv().WEBHOOK_SECRET ?? [];
}
