// Starts an extra `next start` of the current production build (never a build) with its own
// data directory and environment, for tests that need a configuration the shared server does
// not have, e.g. the sandbox off and the service replaced by a counting stand-in.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export interface NextServer {
  url: string;
  /** What the server printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

// Variables that would make the extra server talk to the shared server's sandbox, or reuse
// its port or data directory, are not inherited; the caller sets what it wants instead.
const NOT_INHERITED = /^(VERIFICATION_API_|SANDBOX$|PORT$|DATA_DIR$|APP_URL$|DATABASE_URL$|BETTER_AUTH_SECRET$|__NEXT|NEXT_)/;

export async function startNextServer({
  port,
  env,
  timeoutMs = 60_000,
}: {
  port: number;
  env: Record<string, string>;
  timeoutMs?: number;
}): Promise<NextServer> {
  if (await isListening(port)) {
    throw new Error(`Port ${port} is already in use; stop whatever listens there (only if you started it) and run again.`);
  }
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key, value]) => value !== undefined && !NOT_INHERITED.test(key)),
  );
  // next start runs in production mode whatever it inherits; say so rather than inherit a test's NODE_ENV.
  const childEnv: NodeJS.ProcessEnv = { ...inherited, ...env, PORT: String(port), NODE_ENV: 'production' };
  const child: ChildProcess = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start'], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stop() ends exactly this server and anything it spawned.
    detached: true,
  });
  let log = '';
  // Kept beside the shared server's log, so e2e/leak-check.spec.ts scans what every server printed.
  const logFile = serverLogFile(port);
  const keep = (chunk: Buffer) => {
    log += chunk.toString();
    if (logFile) appendFileSync(logFile, chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = `http://localhost:${port}`;
  const server: NextServer = { url, output: () => log, stop: () => stopProcess(child, exited) };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with code ${child.exitCode}:\n${log}`);
    try {
      // The sign-in page needs the database and auth: when it answers, the server is ready.
      const response = await fetch(`${url}/sign-in`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  throw new Error(`next start on port ${port} did not answer within ${timeoutMs} ms:\n${log}`);
}

/** `<run's data dir>/logs/next-<port>.log`, appended to by every server on that port in this run. */
function serverLogFile(port: number): string | undefined {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) return undefined;
  const dir = path.join(dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `next-${port}.log`);
}

async function stopProcess(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  // The negative pid addresses the group this test created, nothing else.
  process.kill(-child.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
