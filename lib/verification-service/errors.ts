// The one error the verification-service client throws, and what each of its kinds means for
// the dashboard (worth trying again? which HTTP status?). Callers branch on `kind`, never on the
// message; `describeServiceError` (messages.ts) is where kinds become words for staff.
//
// The message is an internal description for logs: it never holds the API key, the upstream
// body or anything a person typed. The only upstream text kept is `detail`, and only for
// `invalid`, because there the service names the field it refused and staff need that.
import 'server-only';

export const verificationServiceErrorKinds = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid',
  'unavailable',
  'timeout',
  'protocol',
] as const;

export type VerificationServiceErrorKind = (typeof verificationServiceErrorKinds)[number];

export const MAX_DETAIL_LENGTH = 300;

export interface VerificationServiceErrorOptions {
  /** The upstream HTTP status, when the service answered at all. */
  status?: number;
  /** How long the service asked us to wait (Retry-After), in seconds. */
  retryAfterSeconds?: number;
  /** The upstream `{"error": "..."}` message; dropped unless kind is 'invalid'. */
  detail?: string;
  /**
   * Nothing answered at the service's address (connection refused, unknown host): no request
   * was sent at all, so a create certainly did not happen. Only with kind 'unavailable'.
   */
  unreachable?: boolean;
}

export class VerificationServiceError extends Error {
  readonly kind: VerificationServiceErrorKind;
  readonly status?: number;
  readonly retryAfterSeconds?: number;
  readonly detail?: string;
  readonly unreachable?: boolean;

  constructor(kind: VerificationServiceErrorKind, message: string, options: VerificationServiceErrorOptions = {}) {
    super(message);
    this.name = 'VerificationServiceError';
    this.kind = kind;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (kind === 'unavailable' && options.unreachable) this.unreachable = true;
    // Enforced here rather than at each throw site, so no code path can carry an upstream body
    // into another kind by accident.
    if (kind === 'invalid' && options.detail !== undefined) {
      const detail = cleanDetail(options.detail);
      if (detail) this.detail = detail;
    }
  }
}

export function isVerificationServiceError(error: unknown): error is VerificationServiceError {
  return error instanceof VerificationServiceError;
}

interface KindTraits {
  /**
   * The same call may well succeed later with nothing changed on our side, so staff are offered
   * "try again". The others need a different id, or an administrator to fix the configuration.
   */
  transient: boolean;
  /** What the dashboard's read route answers the browser when a read fails this way. */
  httpStatus: number;
}

// One row per kind, so a new kind cannot be added without deciding each of these. A refused key
// (unauthorized) and an unreadable answer (protocol) are the service's side failing the
// dashboard, not the browser's request being wrong: hence 502, like a gateway.
const KIND_TRAITS: Record<VerificationServiceErrorKind, KindTraits> = {
  unauthorized: { transient: false, httpStatus: 502 },
  forbidden: { transient: false, httpStatus: 403 },
  not_found: { transient: false, httpStatus: 404 },
  invalid: { transient: false, httpStatus: 400 },
  unavailable: { transient: true, httpStatus: 503 },
  timeout: { transient: true, httpStatus: 504 },
  protocol: { transient: true, httpStatus: 502 },
};

export function isTransient(kind: VerificationServiceErrorKind): boolean {
  return KIND_TRAITS[kind].transient;
}

export function httpStatusFor(kind: VerificationServiceErrorKind): number {
  return KIND_TRAITS[kind].httpStatus;
}

// Gateway-type failures are usually transient; a 500 is the service's own bug and a 429 asks us
// to back off, so retrying those would only add load and delay.
const RETRYABLE_UNAVAILABLE_STATUSES = new Set([502, 503, 504]);

/**
 * Whether the client repeats a read that failed this way, after a short backoff and without
 * asking staff. Narrower than `isTransient` (a timeout or a gateway status only): an answer we
 * could not understand would most likely be the same again a moment later.
 */
export function isRetryableRead(error: unknown): boolean {
  if (!(error instanceof VerificationServiceError) || !isTransient(error.kind)) return false;
  if (error.kind === 'timeout') return true;
  return error.kind === 'unavailable' && error.status !== undefined && RETRYABLE_UNAVAILABLE_STATUSES.has(error.status);
}

/**
 * Makes upstream text fit to show: control characters and runs of whitespace become one space
 * (it may end up in a single-line toast or a log line), and it is cut to MAX_DETAIL_LENGTH.
 */
function cleanDetail(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = raw.replace(/[\u0000-\u001f\u007f-\u009f\s]+/g, ' ').trim();
  if (flat.length <= MAX_DETAIL_LENGTH) return flat;
  // Cut in UTF-16 units (what `.length` counts) but never between the halves of a surrogate pair.
  let cut = flat.slice(0, MAX_DETAIL_LENGTH - 1);
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
