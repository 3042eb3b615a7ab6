// @ts-check
// What the production server (server.mjs) decides about a request's body before Next.js sees the
// request. Next reads bodies it has no use for: a POST to a page is copied whole for the proxy
// before the proxy's answer is sent, a multipart POST is decoded as a form action before the
// action is looked up, and a body nobody read is drained to the end once the answer is sent.
// So every request that may carry a body is held here, on the socket, to the limit of where it
// goes, and what is over that limit, or goes nowhere, is answered here without reading on.
//
//   POST to a page (server actions, forms posted without JavaScript) and to /sign-out: 1 MB
//   POST /api/webhooks/verification-service (the webhook receiver's own limit):          64 KB
//   POST /v1/verifications/new (the sandbox API's own limit):                             64 KB
//   POST to any other /api/… or /v1/… path (all of them are read-only):       405, body unread
//   Any method but GET, HEAD, OPTIONS and POST:                                405, body unread
//
// A body declared larger than its limit is refused at once. A chunked one (no declared length)
// is held here as it arrives, up to its limit, and handed to Next only once it has ended within
// it. A refusal says "Connection: close" and stops reading the connection.

/** The server-action limit (lib/proxy/server-action-gate.ts SERVER_ACTION_BODY_LIMIT_BYTES). */
export const FORM_BODY_LIMIT_BYTES = 1024 * 1024;
/** lib/webhook-receiver/verify.ts MAX_WEBHOOK_BODY_BYTES. */
export const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;
/** lib/sandbox/config.ts MAX_BODY_BYTES. */
export const SANDBOX_API_BODY_LIMIT_BYTES = 64 * 1024;

/** The same words as lib/proxy/server-action-gate.ts TOO_LARGE_MESSAGE: Next's client shows a text/plain refusal as the error. */
export const FORM_TOO_LARGE_MESSAGE = 'The form is too large to send: at most 1 MB is accepted. Shorten what you entered and submit again.';

/**
 * After a refusal is sent, how long the connection stays half-open before it is dropped: closing
 * a socket with unread data makes the kernel send a reset, which can make a client lose the
 * answer it has not read yet. A client that reads while it sends (curl, browsers) has it by then.
 */
export const CLOSE_AFTER_REFUSAL_MS = 2_000;

/** @typedef {{ status: number, headers: Record<string, string>, body: string }} Answer */
/** @typedef {{ kind: 'pass' } | { kind: 'limit', limit: number, tooLarge: Answer } | { kind: 'refuse', answer: Answer }} BodyRule */

/** @param {number} status @param {string} message @param {Record<string, string>} [headers] @returns {Answer} */
const json = (status, message, headers = {}) => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify({ error: message }),
});

/** @type {Answer} */
const FORM_TOO_LARGE = { status: 413, headers: { 'Content-Type': 'text/plain' }, body: FORM_TOO_LARGE_MESSAGE };

/** The routes that take a POST body of their own, and their limits. */
const POST_ROUTES = new Map([
  ['/sign-out', { limit: FORM_BODY_LIMIT_BYTES, tooLarge: FORM_TOO_LARGE }],
  ['/api/webhooks/verification-service', { limit: WEBHOOK_BODY_LIMIT_BYTES, tooLarge: json(413, 'Webhook body too large.') }],
  [
    '/v1/verifications/new',
    {
      limit: SANDBOX_API_BODY_LIMIT_BYTES,
      tooLarge: json(413, `Request body is too large (limit ${SANDBOX_API_BODY_LIMIT_BYTES / 1024} KB)`),
    },
  ],
]);

const READ_ONLY_API = /^\/(?:api|v1)(?:\/|$)/;

/**
 * Where a request may go with a body, and how large it may be.
 * @param {string | undefined} method
 * @param {string} pathname
 * @returns {BodyRule}
 */
export function bodyRuleFor(method, pathname) {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return { kind: 'pass' };
  // One trailing slash is the same route to Next (next.config.mjs keeps it from being redirected).
  const path = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  const route = POST_ROUTES.get(path);
  if (method !== 'POST') {
    const allow = route ? 'POST' : READ_ONLY_API.test(path) ? 'GET, HEAD' : 'GET, HEAD, POST';
    return { kind: 'refuse', answer: json(405, 'Method not allowed.', { Allow: allow }) };
  }
  if (route) return { kind: 'limit', ...route };
  if (READ_ONLY_API.test(path)) return { kind: 'refuse', answer: json(405, 'Method not allowed.', { Allow: 'GET, HEAD' }) };
  return { kind: 'limit', limit: FORM_BODY_LIMIT_BYTES, tooLarge: FORM_TOO_LARGE };
}

/**
 * Calls `serve` once the request's body is known to keep to its limit, or answers the request
 * itself. Must be called as soon as the request arrives, before anything awaits: body bytes may
 * follow the headers in the same read.
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {() => void} serve
 * @param {{ expectsContinue?: boolean }} [options] the client waits for "100 Continue" before sending the body
 */
export function admitRequest(request, response, serve, { expectsContinue = false } = {}) {
  const rule = bodyRuleFor(request.method, pathOf(request.url));
  if (rule.kind === 'refuse') return refuse(request, response, rule.answer);
  const proceed = () => {
    if (expectsContinue) response.writeContinue();
  };
  if (rule.kind === 'pass') {
    proceed();
    return serve();
  }
  const declared = request.headers['content-length'];
  if (declared !== undefined) {
    // Node's parser has checked it is one whole number and delivers no byte past it.
    if (Number(declared) > rule.limit) return refuse(request, response, rule.tooLarge);
    proceed();
    return serve();
  }
  // Without a length, a request has a body only when it is chunked.
  if (request.headers['transfer-encoding'] === undefined) return serve();
  proceed();
  holdChunkedBody(
    request,
    rule.limit,
    () => serve(),
    () => refuse(request, response, rule.tooLarge),
  );
}

/** @param {string | undefined} url */
function pathOf(url) {
  try {
    return new URL(url ?? '/', 'http://localhost').pathname;
  } catch {
    return '/';
  }
}

// Node's HTTP parser hands every piece of a body to request.push(); taking those pieces over on
// this one request is the only way to count them before anyone reads them.
/** @type {WeakMap<import('node:http').IncomingMessage, import('node:http').IncomingMessage['push']>} */
const originalPush = new WeakMap();

/**
 * Keeps a chunked body's pieces back until it ends (then hands them on and calls `whole`), or
 * until more than `limit` bytes arrived (then calls `tooLarge`; nothing was handed on).
 * @param {import('node:http').IncomingMessage} request
 * @param {number} limit
 * @param {() => void} whole
 * @param {() => void} tooLarge
 */
function holdChunkedBody(request, limit, whole, tooLarge) {
  const push = request.push.bind(request);
  originalPush.set(request, push);
  /** @type {Array<[unknown, BufferEncoding | undefined]>} */
  const held = [];
  let received = 0;
  request.push = (chunk, encoding) => {
    if (chunk === null) {
      request.push = push;
      for (const [piece, pieceEncoding] of held) push(piece, pieceEncoding);
      push(null);
      whole();
      return false;
    }
    received += /** @type {Uint8Array} */ (chunk).byteLength;
    if (received <= limit) {
      held.push([chunk, encoding]);
      return true;
    }
    held.length = 0;
    tooLarge();
    return false;
  };
}

/**
 * Answers the request itself, reads no more of its body, and closes the connection after the answer.
 * @param {import('node:http').IncomingMessage} request
 * @param {import('node:http').ServerResponse} response
 * @param {Answer} answer
 */
function refuse(request, response, { status, headers, body }) {
  const socket = request.socket;
  const push = originalPush.get(request) ?? request.push.bind(request);
  request.push = () => false; // anything still arriving is dropped, and Node stops reading
  socket.pause();
  // The body ends here. Marked complete, or Node would take the early end for an aborted request
  // and destroy the connection before the answer is sent; ended, or Node would read the rest of
  // it to its end after the answer, to make way for a next request.
  request.complete = true;
  push(null);
  // Node closes the socket as soon as a "Connection: close" answer is written, which with unread
  // bytes still queued sends a reset that can make the client lose the answer. Instead: a
  // half-close, so the client sees the answer's end, and the drop a little later.
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), CLOSE_AFTER_REFUSAL_MS).unref();
  };
  response.shouldKeepAlive = false;
  response.writeHead(status, {
    ...headers,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  });
  response.end(body);
}
