// @ts-check
// The production server (lib/cli/server.mjs, what `npm start` runs) of the current build (never a
// build) for the browser tests, the bench and the load test: one way to start it, to know it serves, to stop it, and one rule for which
// of the caller's variables it inherits. Every server gets its own port and data directory.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeOptions } from '../../lib/cli/server-node-options.mjs';
import { assertPortFree } from './ports.mjs';
import { stopProcess } from './processes.mjs';

/** @typedef {import('./server.d.mts').NextServer} NextServer */
/** @typedef {import('./server.d.mts').StartNextServerOptions} StartNextServerOptions */

/** The repository's root: servers and CLIs run there, wherever the caller was started. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// Inherited variables that would point a server (or a CLI preparing its data directory) at
// another server's service, port, database, data or secrets, or carry the caller's Node or
// Next.js settings into it. Callers set what their server needs explicitly.
const NOT_INHERITED =
  /^(VERIFICATION_API_|SANDBOX$|WEBHOOK_SECRET$|PORT$|DATA_DIR$|APP_URL$|DATABASE_URL$|BETTER_AUTH_|NODE_OPTIONS$|__NEXT|NEXT_|E2E_)/;

/** The caller's environment without the variables no server or CLI of the harness may inherit. */
export function inheritedEnv() {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !NOT_INHERITED.test(key)) env[key] = value;
  return env;
}

/**
 * A server configured as an operator runs one against its own embedded sandbox, not in
 * zero-config mode: zero-config makes up its webhook secret at start and tells no one. With the
 * key and secret set here, the caller can act as the service's client and as its webhook sender.
 * With the heap settings `npm start` uses, so what is measured is the server as it ships.
 * @param {{ port: number, apiKey: string, webhookSecret: string }} options
 */
export function sandboxServerEnv({ port, apiKey, webhookSecret }) {
  return {
    SANDBOX: 'on',
    // 127.0.0.1 as in zero-config: the server-side client never depends on name resolution.
    VERIFICATION_API_URL: `http://127.0.0.1:${port}`,
    VERIFICATION_API_KEY: apiKey,
    WEBHOOK_SECRET: webhookSecret,
    NODE_OPTIONS: serverNodeOptions(),
  };
}

/**
 * Starts the production server on `port` and, unless `readyPath` is null, waits until that path answers 200.
 * @param {StartNextServerOptions} options
 * @returns {Promise<NextServer>}
 */
export async function startNextServer({
  port,
  dataDir,
  env = {},
  nodeArgs = [],
  readyPath = '/sign-in',
  timeoutMs = 60_000,
  logFile,
  echo = false,
  outputLimit = Number.POSITIVE_INFINITY,
  ownGroup = true,
  stopGraceMs = 5_000,
  register,
  busyHint,
}) {
  await assertPortFree(port, busyHint);
  const url = `http://localhost:${port}`;
  // The server runs in production mode whatever it inherits; say so rather than inherit a test's NODE_ENV.
  const childEnv = { ...inheritedEnv(), APP_URL: url, ...env, DATA_DIR: dataDir, PORT: String(port), NODE_ENV: 'production' };
  const child = spawn(process.execPath, [...nodeArgs, 'lib/cli/server.mjs', '--port', String(port)], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stop() ends exactly this server and anything it spawned. A server
    // run under a supervisor that stops its whole group instead stays in that group.
    detached: ownGroup,
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  let output = '';
  // Written synchronously, chunk by chunk: a reader (the leak check) may read the file while the server runs.
  /** @type {number | undefined} */
  let fd;
  if (logFile) {
    mkdirSync(path.dirname(logFile), { recursive: true });
    const opened = openSync(logFile, 'a');
    fd = opened;
    // 'close', not 'exit': output may still arrive between the two.
    child.once('close', () => {
      fd = undefined;
      closeSync(opened);
    });
  }
  /** @param {NodeJS.WriteStream} stream */
  const keep = (stream) => (/** @type {Buffer} */ chunk) => {
    output += chunk;
    if (output.length > outputLimit) output = output.slice(-Math.floor(outputLimit / 2));
    if (fd !== undefined) writeSync(fd, chunk);
    if (echo) stream.write(chunk);
  };
  child.stdout.on('data', keep(process.stdout));
  child.stderr.on('data', keep(process.stderr));

  /** @type {NextServer} */
  const server = {
    url,
    port,
    pid: /** @type {number} */ (child.pid),
    output: () => output,
    exited,
    stop: () => stopProcess(child, exited, { group: ownGroup, graceMs: stopGraceMs }),
  };
  // As soon as the process exists, before it is ready: an interruption at any point still stops it.
  register?.(server.stop);
  if (readyPath === null) return server;

  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`The server on port ${port} exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    }
    // The sign-in page needs the database and auth: when it answers 200 the server is ready.
    if ((await statusOf(`${url}${readyPath}`, 5_000)) === 200) return server;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`The server on port ${port} did not answer within ${timeoutMs} ms:\n${output}`);
}

/**
 * The status of a GET, or 0 when there is no answer within `timeoutMs` (a request that hangs is
 * abandoned, not awaited).
 * @param {string} url
 * @param {number} timeoutMs
 * @returns {Promise<number>}
 */
function statusOf(url, timeoutMs) {
  return new Promise((resolve) => {
    const request = http.get(url, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
      response.once('error', () => resolve(0));
    });
    request.setTimeout(timeoutMs, () => request.destroy());
    request.once('error', () => resolve(0));
  });
}
