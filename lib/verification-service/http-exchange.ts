// One HTTP exchange with the service over Node's own http/https client: keep-alive connections,
// one deadline for the whole exchange (connecting, the headers and the body), and a cap on the
// bytes of body read. The client (client.ts) decides what the answer means.
//
// Not fetch: Node's fetch builds WHATWG Request, Response, Headers and stream objects and some
// dozens of promises per call, and every promise pays this process's AsyncLocalStorage hooks
// (Next.js and better-auth keep several). This transport does far less per call, and every page
// view, refresh and create makes one such call.
import 'server-only';
import http from 'node:http';
import https from 'node:https';

/**
 * How long an idle connection is kept for the next call. Below the 5 s after which Node.js
 * servers (the embedded sandbox's included) close an idle connection, so a request is never
 * written to a connection the server is closing at that moment.
 */
export const IDLE_CONNECTION_MS = 4_000;

const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  'https:': new https.Agent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
} as const;

/** The deadline passed before the exchange was complete. */
export class ExchangeTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'TimeoutError';
  }
}

/** The answer's body is larger than the caller's limit (declared, or counted while reading). */
export class AnswerTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`answer larger than ${limit} bytes`);
    this.name = 'AnswerTooLargeError';
  }
}

/** The connection ended before the whole answer came: reported like a reset. */
const cutOff = () => Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' });

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** An answer whose headers have arrived; its body is read (or discarded) separately. */
export interface HttpAnswer {
  status: number;
  /** Header names in lower case. */
  header(name: string): string | undefined;
  /** The whole body, refusing more than `limit` bytes; bounded by the exchange's deadline. */
  read(limit: number): Promise<Buffer>;
  /** Closes the connection without reading the body (one that never ends must not hold us). */
  discard(): void;
}

/**
 * Sends one request and resolves once the answer's headers have arrived. It rejects with
 * ExchangeTimeoutError when the deadline passes first, and with the system error (ECONNREFUSED,
 * ECONNRESET, ENOTFOUND…) when the connection fails. Redirects are not followed.
 *
 * A GET that meets a kept-alive connection the service had already closed (its close not yet
 * seen here, as on a busy machine the moment the service stops) goes out once more on a new
 * connection, within the same deadline: the closed connection says nothing about the service,
 * and the new one gets its answer, or the refusal that says it is gone. A POST is never sent
 * twice: the service may have acted on the first.
 */
export async function httpExchange(url: string, request: ExchangeRequest, { timeoutMs }: { timeoutMs: number }): Promise<HttpAnswer> {
  const started = performance.now();
  try {
    return await sendOnce(url, request, { timeoutMs, reportedMs: timeoutMs, pooled: true });
  } catch (error) {
    if (!(error instanceof StaleConnectionError)) throw error;
    if (request.method !== 'GET') throw error.cause;
    const leftMs = Math.ceil(timeoutMs - (performance.now() - started));
    if (leftMs <= 0) throw new ExchangeTimeoutError(timeoutMs);
    return sendOnce(url, request, { timeoutMs: leftMs, reportedMs: timeoutMs, pooled: false });
  }
}

/** The request went out on a kept-alive connection that turned out to be closed, before any answer. */
class StaleConnectionError extends Error {
  constructor(override readonly cause: unknown) {
    super('a kept-alive connection was closed by the service');
  }
}

const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);

function sendOnce(
  url: string,
  request: ExchangeRequest,
  { timeoutMs, reportedMs, pooled }: { timeoutMs: number; reportedMs: number; pooled: boolean },
): Promise<HttpAnswer> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return Promise.reject(new TypeError(`only http: and https: service URLs are supported, not ${target.protocol}`));
  }
  const secure = target.protocol === 'https:';
  const transport = secure ? https : http;
  const headers = { ...request.headers };
  // A declared length rather than chunks: the request is small and whole.
  if (request.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(request.body));

  return new Promise<HttpAnswer>((resolve, reject) => {
    let timedOut = false;
    // Whoever is waiting now: first for the headers, then for the body.
    let fail: (error: unknown) => void = reject;
    const failure = (error: unknown) => (timedOut ? new ExchangeTimeoutError(reportedMs) : error);
    // Not pooled: a connection of its own (`agent: false`), closed after the answer.
    const agent = pooled ? (secure ? AGENTS['https:'] : AGENTS['http:']) : false;

    const req = transport.request(target, { method: request.method, headers, agent }, (res) => {
      const status = res.statusCode ?? 0;
      let reading = false;
      fail = () => {};
      resolve({
        status,
        header(name) {
          const value = res.headers[name.toLowerCase()];
          return Array.isArray(value) ? value.join(', ') : value;
        },
        read(limit) {
          if (reading) return Promise.reject(new Error('the body is already being read'));
          reading = true;
          if (timedOut) return Promise.reject(new ExchangeTimeoutError(reportedMs));
          if (res.destroyed) return Promise.reject(cutOff());
          return new Promise<Buffer>((resolveBody, rejectBody) => {
            const done = (error?: unknown, body?: Buffer) => {
              clearTimeout(deadline);
              fail = () => {};
              if (error === undefined) resolveBody(body!);
              else rejectBody(failure(error));
            };
            fail = (error) => done(error);
            const declared = Number(res.headers['content-length']);
            if (Number.isFinite(declared) && declared > limit) {
              res.destroy();
              done(new AnswerTooLargeError(limit));
              return;
            }
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (chunk: Buffer) => {
              size += chunk.length;
              if (size > limit) {
                res.destroy();
                done(new AnswerTooLargeError(limit));
                return;
              }
              chunks.push(chunk);
            });
            res.on('end', () => done(undefined, Buffer.concat(chunks, size)));
            // A connection lost mid-body: never hand back a truncated answer as a whole one.
            res.on('close', () => {
              if (!res.complete) done(cutOff());
            });
          });
        },
        discard() {
          clearTimeout(deadline);
          res.destroy();
        },
      });
      res.on('error', (error) => fail(error));
    });

    const deadline = setTimeout(() => {
      timedOut = true;
      req.destroy(new ExchangeTimeoutError(reportedMs));
      fail(new ExchangeTimeoutError(reportedMs));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(deadline);
      const code = (error as NodeJS.ErrnoException).code;
      // Before any answer (fail is still the request's reject): the connection was dead when reused.
      const stale = req.reusedSocket && fail === reject && !timedOut && code !== undefined && STALE_CONNECTION_CODES.has(code);
      fail(stale ? new StaleConnectionError(error) : error);
    });
    req.end(request.body);
  });
}
