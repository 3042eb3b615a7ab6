#!/usr/bin/env node
// @ts-check
// The production server (`npm start`, `npm run serve`, and every server the browser tests, the
// bench and the load test start): Next.js's request handler behind a Node HTTP server of our own,
// through Next's custom-server API. `next start` would serve the same build, but the app behind
// it only learns the client's address from X-Forwarded-For, which the client writes. Here the
// socket is at hand: the address is decided here (client-address.mjs, TRUST_PROXY) and handed to
// the app in a header of our own, which no client can set. Request bodies are held to their
// limits here too, on the socket, before Next reads any of them (request-perimeter.mjs).
//
// Usage: node lib/cli/server.mjs [--port <port>] [--hostname <host>]
// The port is --port, else PORT, else 3000; the server listens on every interface unless
// --hostname names one (as `next start` does; the HOSTNAME variable is not read, because shells
// and container runtimes set it to the machine's name).
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  CLIENT_ADDRESS_HEADER,
  CLIENT_ADDRESS_SERVER,
  clientAddressOf,
  InvalidTrustProxyError,
  parseTrustProxy,
} from './client-address.mjs';
import { admitRequest } from './request-perimeter.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Nothing this server creates may be readable by other local users: its data directory holds
// password hashes and secrets, and the embedded database keeps creating files there for as long as
// the process runs, so the umask is narrowed once, for the whole process, before anything is
// written (lib/platform/owner-only-files.ts narrows it again where the database opens, which also
// covers the CLIs and `next dev`). Bits a stricter umask removes stay removed.
process.umask(process.umask(0o077) | 0o077);

/** @param {string} message @returns {never} */
function refuseToStart(message) {
  console.error(`\nVerification Desk cannot start.\n${message}\n`);
  process.exit(1);
}

/** @type {{ port?: string, hostname?: string }} */
let args = {};
try {
  args = parseArgs({ options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } } }).values;
} catch (error) {
  refuseToStart(`${/** @type {Error} */ (error).message}\nUsage: npm start -- [--port <port>] [--hostname <host>]`);
}

const portText = (args.port ?? process.env.PORT ?? '').trim() || '3000';
const port = Number(portText);
if (!/^\d{1,5}$/.test(portText) || port < 1 || port > 65_535) refuseToStart('PORT (or --port) must be a port number between 1 and 65535.');
const hostname = args.hostname?.trim() || undefined;

let trustedHops = 0;
try {
  trustedHops = parseTrustProxy(process.env.TRUST_PROXY);
} catch (error) {
  if (error instanceof InvalidTrustProxyError) refuseToStart(error.message);
  throw error;
}

// What `next start` sets up before Next.js loads: production mode, and the port for the app
// (lib/env reads PORT; the zero-config sandbox is reached at this port over loopback).
process.env.NODE_ENV ||= 'production';
process.env.PORT = String(port);
// The app reads the address header only when this flag says that this server wrote it. Set on
// globalThis directly: this plain Node script runs before any bundle and cannot import lib/platform/process-singleton.ts.
/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[CLIENT_ADDRESS_SERVER] = true;

const { default: next } = await import('next');
const app = next({ dev: false, dir: root, hostname: hostname ?? 'localhost', port });
const handle = app.getRequestHandler();
const prepared = app.prepare();

/**
 * Replaces whatever the client sent as its address. X-Forwarded-For is rewritten as well, so
 * nothing in the app or its libraries can read the client's own claim by mistake.
 * @param {http.IncomingMessage} request
 */
function stampClientAddress(request) {
  const address = clientAddressOf({
    socketAddress: request.socket.remoteAddress,
    forwardedFor: request.headers['x-forwarded-for'],
    trustedHops,
  });
  delete request.headers[CLIENT_ADDRESS_HEADER];
  delete request.headers['x-forwarded-for'];
  if (address !== null) {
    request.headers[CLIENT_ADDRESS_HEADER] = address;
    request.headers['x-forwarded-for'] = address;
  }
}

/**
 * @param {http.IncomingMessage} request
 * @param {http.ServerResponse} response
 */
async function serve(request, response) {
  try {
    stampClientAddress(request);
    // Requests that arrive while the app starts wait for it, as with `next start`.
    await prepared;
    await handle(request, response);
  } catch (error) {
    console.error(error);
    if (response.headersSent) response.destroy();
    else {
      response.statusCode = 500;
      response.end('Internal Server Error');
    }
  }
}

// Each request's body is held to the limit of where it goes before Next sees the request
// (request-perimeter.mjs), also when the client waits for "100 Continue" before sending it.
const server = http.createServer((request, response) => admitRequest(request, response, () => void serve(request, response)));
server.on('checkContinue', (request, response) =>
  admitRequest(request, response, () => void serve(request, response), { expectsContinue: true }),
);

server.on('error', (error) => {
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  refuseToStart(code === 'EADDRINUSE' ? `Port ${port} is already in use: stop what uses it, or set PORT to another port.` : String(error));
});

server.listen(port, hostname, () => {
  // Next forwards a server action's redirect to this origin (as `next start` sets it).
  const local =
    !hostname || hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname.includes(':') ? `[${hostname}]` : hostname;
  process.env.__NEXT_PRIVATE_ORIGIN = `http://${local}:${port}`;
  console.log(`  Listening on ${hostname ?? 'every interface'}, port ${port}; client addresses: ${describeTrust(trustedHops)}`);
});

prepared.catch((error) => {
  console.error(error);
  process.exit(1);
});

let stopping = false;
// Stop taking requests at once. The app's own shutdown (instrumentation-node.ts) then closes the
// data directory and exits; before it has registered, nothing is open that needs closing.
for (const [signal, code] of /** @type {const} */ ([
  ['SIGINT', 130],
  ['SIGTERM', 143],
])) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeIdleConnections();
    if (process.listenerCount(signal) === 1) void app.close().finally(() => process.exit(code));
    // Should that shutdown hang, the process still ends (a supervisor would kill it anyway).
    setTimeout(() => process.exit(code), 15_000).unref();
  });
}

/** @param {number} hops */
function describeTrust(hops) {
  return hops === 0
    ? "the connection's (TRUST_PROXY=0)"
    : `read from X-Forwarded-For past ${hops} trusted proxy hop${hops === 1 ? '' : 's'}`;
}
