// How one answer of the service becomes a value or a VerificationServiceError: the status
// mapped to a kind, the body read under a cap and checked against the contract's schema, and a
// failure below HTTP reduced to a kind and a system error code. Used by client.ts.
import 'server-only';
import type { z } from 'zod';
import { systemErrorCode } from '@/lib/platform/system-error-code';
import { VerificationServiceError, type VerificationServiceErrorKind } from './errors';
import { AnswerTooLargeError, ExchangeTimeoutError, type HttpAnswer } from './http-exchange';

/** Error bodies are read only for their `error` message, so far less is enough. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;

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

export async function statusError(answer: HttpAnswer, label: string): Promise<VerificationServiceError> {
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
export async function readBody(answer: HttpAnswer, maxBytes: number, label: string, timeoutMs: number): Promise<string> {
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

export function parseAnswer<S extends z.ZodType>(schema: S, text: string, label: string, status: number): z.output<S> {
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
export function transportError(error: unknown, label: string, timeoutMs: number): VerificationServiceError {
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
