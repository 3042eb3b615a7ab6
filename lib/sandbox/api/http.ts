// The HTTP edge of the sandbox API: reading a JSON body safely (type, size, syntax), answered in
// the contract's error shape (§7), and the one wrapper every route handler goes through, so
// none can forget the on/off switch, authentication, the API audit log, or turning a crash
// into a clean 500.
import 'server-only';
import { jsonError } from '@/lib/platform/json-response';
import { logger } from '@/lib/platform/log';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';
import { authenticateApiKey } from '@/lib/sandbox/admin/api-keys';
import { MAX_BODY_BYTES } from '@/lib/sandbox/config';
import { getSandboxDb, type SandboxDb } from '@/lib/sandbox/db';
import { auditPath, recordApiCall } from './api-audit';
import { rateLimitMessage, takeSandboxRequest } from './rate-limit';

const log = logger.child({ area: 'sandbox' });

export type JsonBody = { ok: true; body: unknown } | { ok: false; response: Response };

/**
 * Reads a JSON request body: 415 unless it is declared as JSON (UTF-8), 413 above the size
 * limit, 400 when it does not parse. The limit is checked against Content-Length first and then
 * while reading, because a chunked body declares no length.
 */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<JsonBody> {
  const typeProblem = contentTypeProblem(request.headers.get('content-type'));
  if (typeProblem) return { ok: false, response: jsonError(415, typeProblem) };

  const tooLarge = () => ({
    ok: false as const,
    response: jsonError(413, `Request body is too large (limit ${limit / 1024} KB)`),
  });
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return tooLarge();

  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          // Stop reading: the rest of an oversized body is not worth receiving.
          await reader.cancel().catch(() => undefined);
          return tooLarge();
        }
        chunks.push(value);
      }
    } catch {
      return { ok: false, response: jsonError(400, 'Request body could not be read') };
    }
  }

  let parsed: unknown;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(concat(chunks, size));
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, response: jsonError(400, 'Request body is not valid JSON') };
  }
  return { ok: true, body: parsed };
}

function contentTypeProblem(header: string | null): string | undefined {
  const expected = 'Content-Type must be application/json';
  if (!header) return expected;
  const [mediaType, ...parameters] = header.split(';');
  if (mediaType?.trim().toLowerCase() !== 'application/json') return expected;
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=');
    if (name?.trim().toLowerCase() !== 'charset') continue;
    const charset = value
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    // JSON is UTF-8 (RFC 8259 §8.1); a body declared otherwise would be misread.
    if (charset !== 'utf-8' && charset !== 'utf8') return 'Content-Type charset must be utf-8';
  }
  return undefined;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

/** Who is calling, once the API key has been checked. */
export type ApiCaller = { db: SandboxDb; companyId: string };

type ApiHandler<Context> = (request: Request, caller: ApiCaller, context: Context) => Promise<Response>;

/**
 * Wraps a sandbox API route handler: 404 while the sandbox is off, 403 without a valid key
 * (checked before anything else about the request), 429 with Retry-After over the per-key rate
 * limit (lib/sandbox/api/rate-limit.ts; the refusal is audited like any answer), and 500 `Internal server error` for any
 * exception. The log line names the route and the error, never the request body (it holds
 * personal data). Every authenticated call, whatever its answer, gets one row in the API
 * audit log; calls without a valid key have no company to file them under.
 */
export function sandboxApiRoute<Context>(handler: ApiHandler<Context>) {
  return async (request: Request, context: Context): Promise<Response> => {
    if (!isSandboxEnabled()) return jsonError(404, 'Not found');
    let caller: ApiCaller | undefined;
    let response: Response;
    try {
      const db = await getSandboxDb();
      const authentication = await authenticateApiKey(db, request.headers.get('authorization'));
      if (!authentication.ok) return jsonError(403, authentication.error);
      caller = { db, companyId: authentication.companyId };
      // Per API key (not per company: one noisy integration must not starve a company's other keys).
      const rate = takeSandboxRequest(authentication.keyId);
      response = rate.allowed
        ? await handler(request, caller, context)
        : jsonError(429, rateLimitMessage(rate), { 'Retry-After': String(rate.retryAfterSeconds) });
    } catch (error) {
      log.error({ err: error, method: request.method, path: auditPath(request.url) }, 'sandbox API request failed');
      response = jsonError(500, 'Internal server error');
    }
    if (caller) {
      // Queued, not awaited: the row is written with others within API_AUDIT_FLUSH_MS (see
      // api-audit.ts). A row that cannot be written never changes the answer: a request that
      // was created must not be reported as failed (the caller would retry and create it twice).
      const path = auditPath(request.url);
      recordApiCall(caller.db, {
        companyId: caller.companyId,
        method: request.method,
        url: request.url,
        status: response.status,
        at: new Date(),
      }).catch((error: unknown) => {
        log.error({ err: error, method: request.method, path }, 'sandbox API audit row not written');
      });
    }
    return response;
  };
}
