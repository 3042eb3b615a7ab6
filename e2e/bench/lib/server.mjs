// The bench's own production server: `next start` in its own process group on a data directory
// the project's CLIs prepared (a sandbox company with its API key, an operator account), configured like a real deployment pointed at a service
// rather than in zero-config mode — the sandbox is on and the dashboard talks to it over loopback
// with the CLI's key — so the bench knows the API key and the webhook secret and can play both
// the service's client and the service's webhook sender.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { serverNodeOptions } from '../../../lib/cli/server-node-options.mjs';
import { timedRequest } from './http.mjs';

export const OPERATOR = { email: 'bench.operator@example.com', password: 'bench-operator-password', name: 'Bench Operator' };

/** A Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export function isListening(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// Inherited variables that would point the server elsewhere or reuse another run's state.
const NOT_INHERITED =
  /^(VERIFICATION_API_|SANDBOX$|PORT$|DATA_DIR$|APP_URL$|DATABASE_URL$|BETTER_AUTH_|WEBHOOK_SECRET$|__NEXT|NEXT_|NODE_OPTIONS$)/;

/**
 * Starts the server and waits until it serves. `register(stop)` is called as soon as the process
 * exists, before it is ready, so an interruption at any point still stops it.
 */
export async function startServer({ port, dataDir, apiKey, webhookSecret, register, timeoutMs = 60_000 }) {
  if (await isListening(port)) throw new Error(`port ${port} is already in use (set BENCH_PORT to another port in 3500-3599)`);
  const url = `http://localhost:${port}`;
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !NOT_INHERITED.test(key)));
  const env = {
    ...inherited,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    APP_URL: url,
    SANDBOX: 'on',
    // 127.0.0.1 as in zero-config: the server-side client never depends on name resolution.
    VERIFICATION_API_URL: `http://127.0.0.1:${port}`,
    VERIFICATION_API_KEY: apiKey,
    WEBHOOK_SECRET: webhookSecret,
    // The bench creates hundreds of requests a minute as one operator with one key: lift both
    // limits (their own tests cover them); what is measured is the work, not the refusal.
    CREATE_RATE_LIMIT_PER_MINUTE: '10000',
    SANDBOX_RATE_LIMIT_PER_MINUTE: '10000000',
    // The heap settings `npm start` uses: the bench measures the server as it ships.
    NODE_OPTIONS: serverNodeOptions(),
  };
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (for finding why
  // a figure is slow; open it in Chrome DevTools). Node refuses --cpu-prof in NODE_OPTIONS.
  const profile = process.env.BENCH_CPU_PROF
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`,
        ...(process.env.BENCH_CPU_PROF_INTERVAL ? [`--cpu-prof-interval=${process.env.BENCH_CPU_PROF_INTERVAL}`] : []),
      ]
    : [];
  const child = spawn(process.execPath, [...profile, 'node_modules/next/dist/bin/next', 'start'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: stop() (and the bench's exit handlers) end it and all it spawned.
    detached: true,
  });
  let log = '';
  const keep = (chunk) => {
    log += chunk;
    if (log.length > 200_000) log = log.slice(-100_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', resolve));

  const server = {
    url,
    pid: child.pid,
    output: () => log,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: () => stopGroup(child, exited),
  };
  register(server.stop);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exited()) throw new Error(`next start exited (${child.exitCode ?? child.signalCode}):\n${log}`);
    try {
      // The sign-in page needs the database and auth: when it answers 200 the server is ready.
      // node:http with a hard socket timeout: a request that hangs is abandoned, not awaited.
      if ((await timedRequest(`${url}/sign-in`, { timeoutMs: 5_000 })).status === 200) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`next start did not answer within ${timeoutMs} ms:\n${log}`);
}

export async function stopGroup(child, exited) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    // Negative pid: the group this bench created, nothing else.
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }, 4_000);
  await exited;
  clearTimeout(timer);
}

/** Direct children of `pid`, from /proc. */
function childrenOf(pid) {
  const found = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command name (which is in parentheses and may contain spaces).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/**
 * The process that actually serves requests. `next start` may run the server in a child it
 * forks (whose title is `next-server (vX)`); the wrapper's RSS would say little. Falls back to
 * the started process itself when it has no such child.
 */
export function findServingProcess(rootPid) {
  const queue = [rootPid];
  const all = [];
  while (queue.length > 0) {
    const pid = queue.shift();
    all.push(pid);
    queue.push(...childrenOf(pid));
  }
  const titled = all.find((pid) => commandLine(pid).startsWith('next-server'));
  return {
    pid: titled ?? rootPid,
    title: commandLine(titled ?? rootPid),
    tree: all.map((pid) => ({ pid, cmd: commandLine(pid).slice(0, 80) })),
  };
}

export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round((Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024) * 10) / 10;
}

export function removeDataDir(dataDir) {
  rmSync(dataDir, { recursive: true, force: true });
}
