// Server-only HTTP client of the identity-verification service (contract §4): it sends the Bearer
// key, bounds every exchange with a timeout (body included), retries reads a little within one
// deadline for the whole read, never retries creates, validates answers with zod, and turns every
// failure into one VerificationServiceError with a `kind`. The HTTP itself is http-exchange.ts.
import 'server-only';
import type { z } from 'zod';
import { systemErrorCode } from '@/lib/platform/system-error-code';
import { isRetryableRead, VerificationServiceError, type VerificationServiceErrorKind } from './errors';
import { AnswerTooLargeError, type ExchangeRequest, ExchangeTimeoutError, type HttpAnswer, httpExchange } from './http-exchange';
import {
  createVerificationResultSchema,
  type SandboxOutboxMessage,
  type SandboxWebhooks,
  sandboxOutboxSchema,
  sandboxWebhooksSchema,
  verificationRecordSchema,
} from './schemas';
import type { CreateVerificationRequest, CreateVerificationResult, VerificationRecord } from './types';

/** Larger answers are a protocol error: a record is a few hundred bytes, so 1 MB is a broken upstream. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;
/** Error bodies are read only for their `error` message, so far less is enough. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;

/** One try plus at most two retries (docs/quality.md, "Upstream faults"). */
export const MAX_READ_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 1_000;

// What a read may take in all, past the configured timeout: room for one retry after a quick
// failure late in the read (a fresh connection often answers where a stuck one did not), while
// a page that waits on the read still answers close to the timeout staff configured.
const READ_MARGIN_SHARE = 0.1;
const READ_MARGIN_MIN_MS = 250;
const READ_MARGIN_MAX_MS = 1_000;
/** A retry with less time than this left could only time out: the read gives up instead. */
const MIN_RETRY_ATTEMPT_MS = 100;

export const MAX_VERIFICATION_ID_LENGTH = 200;

export interface VerificationServiceClientConfig {
  /** e.g. https://verify.example.com (trailing slashes are ignored); paths get /v1/… appended. */
  baseUrl: string;
  apiKey: string;
  /**
   * One exchange's limit, covering the connection, the headers and the whole body. A read's
   * attempts together get `readDeadlineMs(timeoutMs)`; each attempt gets what remains of it, at most this.
   */
  timeoutMs: number;
  /** Jitter source in [0, 1); injectable so tests can pin the backoff. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface VerificationServiceClient {
  createVerification(body: CreateVerificationRequest): Promise<CreateVerificationResult>;
  getVerification(id: string): Promise<VerificationRecord>;
  /** Sandbox only (not part of the service contract): the messages it would have sent for our company. */
  getSandboxOutbox(): Promise<SandboxOutboxMessage[]>;
  /** Sandbox only: our webhook endpoints and the latest events with their delivery attempts. */
  getSandboxWebhooks(): Promise<SandboxWebhooks>;
}

export function createVerificationServiceClient(config: VerificationServiceClientConfig): VerificationServiceClient {
  const baseUrl = config.baseUrl.replace(/\/+$/, '');
  const random = config.random ?? Math.random;
  const sleep = config.sleep ?? defaultSleep;
  const commonHeaders = {
    Authorization: `Bearer ${config.apiKey}`,
    Accept: 'application/json',
  };

  /**
   * One HTTP exchange: its own deadline (`timeoutMs`, the configured one unless a read has less
   * left), a status check, a capped body read, a schema check. Redirects are not followed: one
   * would turn the POST into a GET, or send the key elsewhere, and the contract has none, so it is
   * reported instead.
   */
  async function exchange<S extends z.ZodType>(
    label: string,
    url: string,
    request: ExchangeRequest,
    schema: S,
    timeoutMs: number = config.timeoutMs,
  ): Promise<z.output<S>> {
    let answer: HttpAnswer;
    try {
      answer = await httpExchange(url, request, { timeoutMs });
    } catch (error) {
      throw transportError(error, label, timeoutMs);
    }

    if (answer.status < 200 || answer.status > 299) {
      throw await statusError(answer, label);
    }

    const text = await readBody(answer, MAX_RESPONSE_BYTES, label, timeoutMs);
    return parseAnswer(schema, text, label, answer.status);
  }

  return {
    async createVerification(body) {
      // Never retried: a POST that failed on the way back (timeout, reset, 502) may well have
      // created the request, and a second one would notify the person twice.
      return exchange(
        'create verification',
        `${baseUrl}/v1/verifications/new`,
        { method: 'POST', headers: { ...commonHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
        createVerificationResultSchema,
      );
    },

    async getVerification(id) {
      const safeId = normalizeVerificationId(id);
      const url = `${baseUrl}/v1/verifications/${encodeURIComponent(safeId)}`;
      // One deadline for every attempt: retries must not multiply the wait of whoever reads (a
      // page, a webhook), so a hanging service costs one timeout plus the margin, not three.
      const deadline = performance.now() + readDeadlineMs(config.timeoutMs);
      for (let attempt = 1; ; attempt += 1) {
        const attemptMs = Math.max(1, Math.min(config.timeoutMs, Math.ceil(deadline - performance.now())));
        try {
          return await exchange('read verification', url, { method: 'GET', headers: commonHeaders }, verificationRecordSchema, attemptMs);
        } catch (error) {
          if (attempt >= MAX_READ_ATTEMPTS || !isRetryableRead(error)) throw error;
          const delayMs = backoffDelayMs(attempt - 1, random);
          if (deadline - performance.now() - delayMs < MIN_RETRY_ATTEMPT_MS) throw error;
          await sleep(delayMs);
        }
      }
    },

    async getSandboxOutbox() {
      const answer = await exchange(
        'read sandbox outbox',
        `${baseUrl}/v1/sandbox/outbox`,
        { method: 'GET', headers: commonHeaders },
        sandboxOutboxSchema,
      );
      return answer.messages;
    },

    async getSandboxWebhooks() {
      return exchange(
        'read sandbox webhooks',
        `${baseUrl}/v1/sandbox/webhooks`,
        { method: 'GET', headers: commonHeaders },
        sandboxWebhooksSchema,
      );
    },
  };
}

/**
 * How long one read may take in all, its retries and their backoff included: the configured
 * timeout plus a margin of a tenth of it, kept between 250 ms and 1 s.
 */
export function readDeadlineMs(timeoutMs: number): number {
  const margin = Math.min(READ_MARGIN_MAX_MS, Math.max(READ_MARGIN_MIN_MS, Math.round(timeoutMs * READ_MARGIN_SHARE)));
  return timeoutMs + margin;
}

/**
 * Full-jitter exponential backoff: a uniform delay in [0, min(cap, base·2^retry)), so several
 * dashboards that failed together do not retry together. `retry` counts from 0.
 */
export function backoffDelayMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  const unit = Math.min(Math.max(random(), 0), 1);
  return Math.min(Math.floor(unit * ceiling), ceiling);
}

/**
 * Checks an id before it goes into a URL path. Ids are opaque, so only what would change the path
 * is refused: '/', and the dot segments '.' and '..' (URL parsing would resolve them and send the
 * key to another endpoint). Surrounding whitespace is a copy-paste accident and is removed.
 */
export function normalizeVerificationId(id: string): string {
  const trimmed = typeof id === 'string' ? id.trim() : '';
  let problem: string | undefined;
  if (trimmed === '') problem = 'is empty';
  else if (trimmed.length > MAX_VERIFICATION_ID_LENGTH) problem = `is longer than ${MAX_VERIFICATION_ID_LENGTH} characters`;
  else if (trimmed.includes('/')) problem = "contains '/'";
  else if (trimmed === '.' || trimmed === '..') problem = 'is a dot segment';
  // eslint-disable-next-line no-control-regex
  else if (/[\u0000-\u001f\u007f]/.test(trimmed)) problem = 'contains control characters';
  if (problem) {
    throw new VerificationServiceError('invalid', `read verification: id ${problem}; not sent to the service`);
  }
  return trimmed;
}

/**
 * Retry-After is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3); returns whole seconds
 * from `now`, or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) {
    const seconds = Number(trimmed);
    return Number.isSafeInteger(seconds) ? seconds : undefined;
  }
  // Date.parse alone would take "-5" or "2030" as dates; an HTTP-date starts with the weekday.
  if (!/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /i.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function kindForStatus(status: number): VerificationServiceErrorKind {
  if (status === 400) return 'invalid';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'unavailable';
  if (status >= 400 && status <= 499) return 'invalid';
  if (status >= 500 && status <= 599) return 'unavailable';
  // 1xx cannot reach us and 3xx is not followed: neither is part of the contract.
  return 'protocol';
}

async function statusError(answer: HttpAnswer, label: string): Promise<VerificationServiceError> {
  const status = answer.status;
  const kind = kindForStatus(status);

  if (kind === 'invalid') {
    // The one case where the upstream's words reach staff: it names the field it refused.
    const detail = await readErrorDetail(answer);
    return new VerificationServiceError('invalid', `${label}: the service answered HTTP ${status}`, { status, detail });
  }

  answer.discard();
  if (kind === 'protocol') {
    return new VerificationServiceError('protocol', `${label}: unexpected HTTP ${status} (redirects are not followed)`, {
      status,
    });
  }
  // RFC 9110 allows Retry-After on 503 as well as 429; either way it tells staff how long to wait.
  const retryAfterSeconds = status === 429 || status === 503 ? parseRetryAfter(answer.header('retry-after') ?? null) : undefined;
  return new VerificationServiceError(kind, `${label}: the service answered HTTP ${status}`, { status, retryAfterSeconds });
}

/** The `error` string of a `{"error": "..."}` body, or undefined; never throws. */
async function readErrorDetail(answer: HttpAnswer): Promise<string | undefined> {
  try {
    const parsed: unknown = JSON.parse(decodeUtf8(await answer.read(MAX_ERROR_BODY_BYTES)));
    if (typeof parsed === 'object' && parsed !== null && 'error' in parsed && typeof parsed.error === 'string') {
      return parsed.error;
    }
  } catch {
    // A refusal without a readable reason (too long, cut off, stalled, not JSON) is still a
    // refusal; the kind says enough.
  }
  return undefined;
}

/**
 * Reads the body as UTF-8 text, refusing more than `maxBytes` (checked on the bytes received,
 * not only the declared length, which a chunked answer does not have).
 */
async function readBody(answer: HttpAnswer, maxBytes: number, label: string, timeoutMs: number): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await answer.read(maxBytes);
  } catch (error) {
    if (error instanceof AnswerTooLargeError) {
      throw new VerificationServiceError('protocol', `${label}: answer larger than ${maxBytes} bytes`, { status: answer.status });
    }
    throw transportError(error, label, timeoutMs);
  }
  try {
    return decodeUtf8(bytes);
  } catch {
    throw new VerificationServiceError('protocol', `${label}: answer is not valid UTF-8`, { status: answer.status });
  }
}

const decodeUtf8 = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

function parseAnswer<S extends z.ZodType>(schema: S, text: string, label: string, status: number): z.output<S> {
  if (text.trim() === '') {
    throw new VerificationServiceError('protocol', `${label}: HTTP ${status} with an empty body`, { status });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new VerificationServiceError('protocol', `${label}: HTTP ${status} with a body that is not JSON`, { status });
  }
  const result = schema.safeParse(json);
  if (!result.success) {
    // Paths and issue codes only: they come from our schema, while messages could echo values
    // (names, purposes) that have no place in a log.
    const where = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.map(String).join('.') || 'body'} (${issue.code})`)
      .join(', ');
    throw new VerificationServiceError('protocol', `${label}: answer does not match the contract: ${where}`, { status });
  }
  return result.data;
}

/** Maps a failure below HTTP (or the timeout) to a kind, keeping only a system error code. */
function transportError(error: unknown, label: string, timeoutMs: number): VerificationServiceError {
  if (error instanceof VerificationServiceError) return error;
  if (error instanceof ExchangeTimeoutError) {
    return new VerificationServiceError('timeout', `${label}: no complete answer within ${timeoutMs} ms`);
  }
  const code = systemErrorCode(error);
  return new VerificationServiceError('unavailable', `${label}: could not reach the service${code ? ` (${code})` : ''}`, {
    unreachable: code !== undefined && UNREACHABLE_CODES.has(code),
  });
}

// Failures before any byte of the request left: nobody listens at the address, or it does not
// resolve. (A reset or a closed socket may come after the request was sent, so they are not here.)
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
