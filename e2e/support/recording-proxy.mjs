// A forward HTTP proxy that records the browser's traffic during the browser tests, so
// e2e/leak-check.spec.ts can show that no secret ever reached the browser. Chromium is pointed at
// it (playwright.config.ts, `proxy` with `<-loopback>`, else Chromium bypasses proxies for
// localhost); it forwards to the local test servers only and writes, per exchange, one JSON line
// (method, URL, headers, status, timing) to traffic.jsonl and both bodies, decompressed, under
// bodies/ (recorded-body.mjs).
//
// Bodies are streamed through, never buffered: an SSE stream reaches the browser chunk by chunk
// (e2e/live-status.spec.ts measures that) and reaches the disk the same way.
//
// Requests addressed to the proxy itself (not in absolute form) are its control endpoints:
//   GET /__recorder/ready   for Playwright's webServer check
//   GET /__recorder/status  {recorded, open: [exchanges still flowing, with what is known so far]}
//
// Environment: RECORDING_PROXY_PORT, RECORDING_DIR.
import { appendFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { bodyRecorder } from './recorded-body.mjs';

const port = Number(process.env.RECORDING_PROXY_PORT);
const dir = process.env.RECORDING_DIR;
if (!port || !dir) {
  console.error('recording-proxy: set RECORDING_PROXY_PORT and RECORDING_DIR');
  process.exit(2);
}
const bodiesDir = path.join(dir, 'bodies');
mkdirSync(bodiesDir, { recursive: true });
const journal = path.join(dir, 'traffic.jsonl');

// Only the test servers: nothing the browser does in a test may reach another machine.
const ALLOWED_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
// Connection-level headers: they describe the hop, not the request, and must not be forwarded.
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

// An idle connection is dropped after 4 s, before the server's own 5 s keep-alive ends it: a
// request written to a connection the server is closing at that moment fails with ECONNRESET,
// and a POST (a server action) cannot be sent again, so the page would get this proxy's 502.
// The timeout only ends idle connections; a slow answer or an event stream keeps its own.
const upstreamAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, timeout: 4_000 });
let sequence = 0;
let recorded = 0;
// Exchanges still flowing (event streams of pages that are still open), as far as known so far.
const open = new Map();

function forwardHeaders(headers) {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)));
}

function control(request, response) {
  const body =
    request.url === '/__recorder/status'
      ? { recorded, open: [...open.values()] }
      : request.url === '/__recorder/ready'
        ? { ready: true }
        : undefined;
  response.writeHead(body ? 200 : 404, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body ?? { error: 'not a recorder endpoint' }));
}

function proxy(request, response) {
  const id = ++sequence;
  const started = Date.now();
  const entry = {
    id,
    startedAt: new Date(started).toISOString(),
    method: request.method,
    url: request.url,
    requestHeaders: request.headers,
  };
  open.set(id, entry);

  let target;
  try {
    target = new URL(request.url);
  } catch {
    target = undefined;
  }
  if (target?.protocol !== 'http:' || !ALLOWED_HOSTS.has(target.hostname)) {
    // Drain what was sent, answer, and record the refusal (it shows up in the leak check's report).
    request.resume();
    response.writeHead(403, { 'content-type': 'text/plain' });
    response.end('The recording proxy forwards to the local test servers only.');
    return void finish({ ...entry, status: 403, refused: true }, []);
  }

  const requestBody = bodyRecorder(bodiesDir, `${id}.request`, request.headers['content-encoding']);
  let responseBody;
  let settled = false;
  const settle = (extra) => {
    if (settled) return;
    settled = true;
    void finish({ ...entry, ...extra }, [requestBody, responseBody]);
  };

  let current;
  const send = (retried) => {
    const upstreamRequest = http.request({
      host: target.hostname === '[::1]' ? '::1' : target.hostname,
      port: target.port || 80,
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers: forwardHeaders(request.headers),
      agent: upstreamAgent,
    });
    current = upstreamRequest;
    upstreamRequest.on('response', (upstreamResponse) => relay(upstreamResponse));
    // Ended without an answer and without an error (the browser gave up and it was destroyed).
    upstreamRequest.on('close', () => {
      if (current === upstreamRequest && !responseBody) settle({ error: 'closed before an answer', complete: false });
    });
    upstreamRequest.on('error', (error) => {
      // A kept-alive connection the server closed just as it was reused: the request never
      // arrived, so a request without a body is simply sent again (Node's documented remedy).
      const bodiless = request.method === 'GET' || request.method === 'HEAD';
      if (!retried && bodiless && upstreamRequest.reusedSocket && error.code === 'ECONNRESET' && !response.headersSent) {
        return void send(true).end();
      }
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`recording proxy: ${error.code ?? error.message}`);
      } else {
        response.destroy();
      }
      settle({ status: response.headersSent ? undefined : 502, error: error.code ?? error.message, complete: false });
    });
    // The browser went away before the answer: nothing is waiting for it any more.
    response.on('close', () => {
      if (!response.headersSent) upstreamRequest.destroy();
    });
    return upstreamRequest;
  };

  const relay = (upstreamResponse) => {
    const encoding = upstreamResponse.headers['content-encoding'];
    responseBody = bodyRecorder(bodiesDir, `${id}.response`, encoding);
    Object.assign(entry, {
      status: upstreamResponse.statusCode,
      responseHeaders: upstreamResponse.headers,
      partialBodies: [`.${id}.request.partial`, `.${id}.response.partial`],
    });
    const done = (complete) =>
      settle({
        status: upstreamResponse.statusCode,
        responseHeaders: upstreamResponse.headers,
        responseEncoding: encoding ?? null,
        complete,
      });
    response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.statusMessage, forwardHeaders(upstreamResponse.headers));
    // Headers first, at once: an event stream may send its first event much later.
    response.flushHeaders();
    upstreamResponse.on('data', (chunk) => {
      responseBody.write(chunk);
      if (!response.write(chunk)) {
        upstreamResponse.pause();
        response.once('drain', () => upstreamResponse.resume());
      }
    });
    upstreamResponse.on('end', () => {
      response.end();
      done(true);
    });
    upstreamResponse.on('error', () => done(false));
    // The browser went away (a page closed its event stream): stop the upstream, keep what came.
    response.on('close', () => {
      if (!response.writableFinished) {
        upstreamResponse.destroy();
        done(false);
      }
    });
  };

  const upstreamRequest = send(false);
  request.on('data', (chunk) => {
    requestBody.write(chunk);
    if (!upstreamRequest.write(chunk)) {
      request.pause();
      upstreamRequest.once('drain', () => request.resume());
    }
  });
  request.on('end', () => upstreamRequest.end());
}

async function finish({ partialBodies: _, ...entry }, bodies) {
  const [requestBody, responseBody] = await Promise.all(bodies.map((body) => body?.finish()));
  const record = {
    ...entry,
    durationMs: Date.now() - Date.parse(entry.startedAt),
    requestBody: requestBody?.body ?? null,
    requestBytes: requestBody?.bytes ?? 0,
    responseBody: responseBody?.body ?? null,
    responseBytes: responseBody?.bytes ?? 0,
    responseDecoded: responseBody?.decoded ?? false,
    ...(responseBody?.decodeError ? { decodeError: responseBody.decodeError } : {}),
  };
  appendFileSync(journal, `${JSON.stringify(record)}\n`);
  recorded += 1;
  open.delete(entry.id);
}

const server = http.createServer((request, response) => {
  if (request.url?.startsWith('/')) return control(request, response);
  proxy(request, response);
});
// CONNECT: Playwright's own API client (`page.request`, `context.request`) shares the browser's
// proxy and tunnels even plain HTTP through it. Tunnels to the test servers are opened, and the
// bytes both ways are kept raw (not parsed, not decompressed); any other destination is refused.
server.on('connect', (request, client, head) => {
  const id = ++sequence;
  const entry = { id, startedAt: new Date().toISOString(), method: 'CONNECT', url: request.url, tunnel: true };
  const target = /^(\[::1\]|[^:]+):(\d+)$/.exec(request.url ?? '');
  if (!target || !ALLOWED_HOSTS.has(target[1])) {
    client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    return void finish({ ...entry, refused: true, status: 403 }, []);
  }
  open.set(id, { ...entry, partialBodies: [`.${id}.tunnel-out.partial`, `.${id}.tunnel-in.partial`] });
  const sent = bodyRecorder(bodiesDir, `${id}.tunnel-out`);
  const received = bodyRecorder(bodiesDir, `${id}.tunnel-in`);
  const upstream = net.connect({ host: target[1] === '[::1]' ? '::1' : target[1], port: Number(target[2]) });
  let closed = false;
  const close = (error) => {
    if (closed) return;
    closed = true;
    client.destroy();
    upstream.destroy();
    void finish({ ...entry, status: error ? 502 : 200, ...(error ? { error: error.code ?? error.message } : {}) }, [sent, received]);
  };
  upstream.once('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head?.length) {
      sent.write(head);
      upstream.write(head);
    }
    client.on('data', (chunk) => sent.write(chunk));
    upstream.on('data', (chunk) => received.write(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  // `on`, not `once`: a socket can report more than one error as it is torn down (a reset while
  // the other side is being closed), and an error nobody listens to ends this whole process —
  // and with it every browser test still running. close() runs once whatever calls it.
  upstream.on('error', (error) => {
    if (closed) return;
    if (!upstream.connecting) return close();
    client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    close(error);
  });
  client.on('error', () => close());
  client.once('close', () => close());
  upstream.once('close', () => close());
});
server.on('upgrade', (_request, socket) => socket.end('HTTP/1.1 501 Not Implemented\r\n\r\n'));
// Chromium keeps its proxy connections open between requests.
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => console.log(`recording proxy on http://127.0.0.1:${port}, writing to ${dir}`));

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    server.close();
    process.exit(0);
  });
}
