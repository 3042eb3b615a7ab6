// Server-only HTTP client of the identity-verification service (contract §4): it sends the Bearer
// key, bounds every exchange with a timeout (body included), retries reads a little within one
// deadline for the whole read, never retries creates, validates answers with zod, and turns every
// failure into one VerificationServiceError with a `kind`. The HTTP itself is http-exchange.ts; how
// an answer becomes a value or an error is answers.ts.
import 'server-only';
import type { z } from 'zod';
import { parseAnswer, readBody, statusError, transportError } from './answers';
import { isRetryableRead, VerificationServiceError } from './errors';
import { type ExchangeRequest, type HttpAnswer, httpExchange } from './http-exchange';
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

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export { parseRetryAfter } from './answers';
