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
 */
export function httpExchange(url: string, request: ExchangeRequest, { timeoutMs }: { timeoutMs: number }): Promise<HttpAnswer> {
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
    const failure = (error: unknown) => (timedOut ? new ExchangeTimeoutError(timeoutMs) : error);

    const req = transport.request(
      target,
      { method: request.method, headers, agent: secure ? AGENTS['https:'] : AGENTS['http:'] },
      (res) => {
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
            if (timedOut) return Promise.reject(new ExchangeTimeoutError(timeoutMs));
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
      },
    );

    const deadline = setTimeout(() => {
      timedOut = true;
      req.destroy(new ExchangeTimeoutError(timeoutMs));
      fail(new ExchangeTimeoutError(timeoutMs));
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(deadline);
      fail(error);
    });
    req.end(request.body);
  });
}
