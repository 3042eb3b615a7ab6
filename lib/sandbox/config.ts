// The sandbox's own reading of its configuration. It reads process.env directly, never the
// dashboard's lib/env, so the embedded service stays a separate service that merely shares the
// process (and could be lifted out without dragging the dashboard along).
import 'server-only';

/** Largest request body the API accepts: the seed names no limit, and 64 KB is far above any real request. */
export const MAX_BODY_BYTES = 64 * 1024;

function readVariable(name: string): string | undefined {
  const value = process.env[name]?.trim();
  return value ? value : undefined;
}

/**
 * The sandbox runs when explicitly switched on, or by default when the dashboard is not pointed
 * at a real service. Instrumentation sets SANDBOX=on in zero-config mode before it fills in
 * VERIFICATION_API_URL with the sandbox's own address, so that later reading still says "on".
 */
export function isSandboxEnabled(): boolean {
  return process.env.SANDBOX === 'on' || (process.env.SANDBOX !== 'off' && !process.env.VERIFICATION_API_URL);
}

/**
 * Where the embedded database lives. An empty value counts as unset, as it does for the
 * dashboard (lib/env.ts); otherwise '' would mean "in memory" to the connection and the two
 * parts of the app would quietly use different databases.
 */
export function getSandboxDataDir(): string {
  return readVariable('DATA_DIR') ?? './data';
}

/**
 * The public base address for links sent to people: APP_URL when set (behind a proxy the
 * request's own origin may be an internal address), else the origin the request came in on.
 */
export function getPublicBaseUrl(request: Request): string {
  const configured = readVariable('APP_URL');
  if (configured) return configured.replace(/\/+$/, '');
  return new URL(request.url).origin;
}

function readSeconds(name: string): number | undefined {
  const value = readVariable(name);
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`${name} must be a whole number of seconds (at least 1)`);
  return seconds;
}

/**
 * Optional settings of the zero-config "Sandbox company", applied at every start: useful to
 * watch links expire or data being purged without waiting days. Unset keeps what is stored.
 */
export function getDefaultCompanySettingsFromEnv() {
  return {
    tokenValiditySeconds: readSeconds('SANDBOX_TOKEN_VALIDITY_SECONDS'),
    verificationRetentionSeconds: readSeconds('SANDBOX_RETENTION_SECONDS'),
  };
}

/** How often the sandbox looks for links that have expired (default 5 s). */
export function getSweepIntervalMs(): number {
  const value = readVariable('SANDBOX_SWEEP_INTERVAL_MS');
  const ms = value === undefined ? 5_000 : Number(value);
  return Number.isInteger(ms) && ms >= 100 ? ms : 5_000;
}
