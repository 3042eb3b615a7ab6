// The sandbox's configuration, parsed with one zod schema. It reads process.env itself, never
// the dashboard's lib/env, so the embedded service stays a separate service that merely shares
// the process. Every invalid value is refused the same way: an error naming the variable, which
// stops the start-up (the composition root reads the configuration before serving) and, if a
// value turns bad later, fails the call that needs it rather than silently using a default.
import 'server-only';
import { z } from 'zod';
import { blankAsUnset } from '@/lib/platform/env-values';

/** Largest request body the API accepts: the contract names no limit, and 64 KB is far above any real request. */
export const MAX_BODY_BYTES = 64 * 1024;

const DEFAULT_RATE_LIMIT_PER_MINUTE = 3000;
const DEFAULT_SWEEP_INTERVAL_MS = 5_000;

const text = z.preprocess((value) => (typeof value === 'string' ? value.trim() : value), z.string()).optional();
const wholeNumber = (name: string, unit: string, min: number) => {
  const error = `${name} must be a whole number of ${unit} (at least ${min})`;
  return z.preprocess(blankAsUnset, z.coerce.number({ error }).int({ error }).min(min, { error }).optional());
};

const sandboxConfigSchema = z.object({
  DATA_DIR: z.preprocess(blankAsUnset, text),
  DATABASE_URL: z.preprocess(blankAsUnset, text),
  DATABASE_POOL_MAX: wholeNumber('DATABASE_POOL_MAX', 'connections', 1),
  APP_URL: z.preprocess(blankAsUnset, text),
  SMTP_URL: z.preprocess(blankAsUnset, text),
  SMTP_FROM: z.preprocess(blankAsUnset, text),
  SANDBOX_TOKEN_VALIDITY_SECONDS: wholeNumber('SANDBOX_TOKEN_VALIDITY_SECONDS', 'seconds', 1),
  SANDBOX_RETENTION_SECONDS: wholeNumber('SANDBOX_RETENTION_SECONDS', 'seconds', 1),
  SANDBOX_SWEEP_INTERVAL_MS: wholeNumber('SANDBOX_SWEEP_INTERVAL_MS', 'milliseconds', 100),
  SANDBOX_RATE_LIMIT_PER_MINUTE: wholeNumber('SANDBOX_RATE_LIMIT_PER_MINUTE', 'requests per minute', 1),
});

export type SandboxConfig = {
  dataDir: string;
  /** The PostgreSQL server the dashboard stores in, when it uses one: the sandbox's tables sit beside its own. */
  databaseUrl: string | undefined;
  databasePoolMax: number;
  appUrl: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string | undefined;
  /** Settings of the zero-config company, applied at every start; unset keeps what is stored. */
  defaultCompany: { tokenValiditySeconds: number | undefined; verificationRetentionSeconds: number | undefined };
  sweepIntervalMs: number;
  rateLimitPerMinute: number;
};

const VARIABLES = Object.keys(sandboxConfigSchema.shape) as Array<keyof typeof sandboxConfigSchema.shape>;

// Parsed once per distinct set of values: the process's environment is fixed after start-up,
// while tests (and the composition root, once) change it in place.
let cached: { key: string; config: SandboxConfig } | undefined;

export function getSandboxConfig(): SandboxConfig {
  const raw = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  const key = JSON.stringify(raw);
  if (cached?.key === key) return cached.config;
  const parsed = sandboxConfigSchema.safeParse(raw);
  if (!parsed.success) throw new Error(parsed.error.issues.map((issue) => issue.message).join('; '));
  const env = parsed.data;
  const config: SandboxConfig = {
    dataDir: env.DATA_DIR ?? './data',
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX ?? 10,
    appUrl: env.APP_URL,
    smtpUrl: env.SMTP_URL,
    smtpFrom: env.SMTP_FROM,
    defaultCompany: {
      tokenValiditySeconds: env.SANDBOX_TOKEN_VALIDITY_SECONDS,
      verificationRetentionSeconds: env.SANDBOX_RETENTION_SECONDS,
    },
    sweepIntervalMs: env.SANDBOX_SWEEP_INTERVAL_MS ?? DEFAULT_SWEEP_INTERVAL_MS,
    rateLimitPerMinute: env.SANDBOX_RATE_LIMIT_PER_MINUTE ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
  };
  cached = { key, config };
  return config;
}

/**
 * Where the embedded database lives. An empty value counts as unset, as it does for the
 * dashboard (lib/env.ts); otherwise '' would mean "in memory" to the connection and the two
 * parts of the app would quietly use different databases.
 */
export function getSandboxDataDir(): string {
  return getSandboxConfig().dataDir;
}

/**
 * The public base address for links sent to people: APP_URL when set (behind a proxy the
 * request's own origin may be an internal address), else the origin the request came in on.
 */
export function getPublicBaseUrl(request: Request): string {
  const configured = getSandboxConfig().appUrl;
  if (configured) return configured.replace(/\/+$/, '');
  return new URL(request.url).origin;
}
