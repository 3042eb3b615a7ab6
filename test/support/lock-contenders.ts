// Starts test/support/lock-contender.ts as real processes and reads what they say, for the lock
// tests: a contender can hold a lock, be killed with SIGKILL, or race others for one.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const SCRIPT = path.join(process.cwd(), 'test/support/lock-contender.ts');

export type ContenderEvent = { event: 'ready' | 'acquired' | 'refused'; pid: number; message?: string; tookOver?: unknown };

export type Contender = {
  pid: number;
  /** The first event it printed that is not `ready`: whether it got the lock. */
  outcome: Promise<ContenderEvent>;
  ready: Promise<void>;
  /** Lets a contender started with `go` try. */
  go(): void;
  /** SIGKILL; resolves once the process has exited (and been reaped). */
  kill(): Promise<void>;
  /** Everything it printed on stderr, for failure messages. */
  stderr(): string;
};

const running = new Set<ChildProcess>();

export function startContender(mode: 'lock' | 'database', target: string, { go = false } = {}): Contender {
  // Node itself with tsx's loader, not the tsx command, which runs the script in a child of its
  // own: the pid here is the pid in the lock, and SIGKILL reaches the process that holds it.
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', SCRIPT, mode, target, ...(go ? ['--go'] : [])], {
    cwd: process.cwd(),
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const events: ContenderEvent[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.startsWith('{"event"')) return;
    events.push(JSON.parse(line) as ContenderEvent);
    for (const wake of waiters.splice(0)) wake();
  });
  const find = (match: (event: ContenderEvent) => boolean) =>
    new Promise<ContenderEvent>((resolve, reject) => {
      const check = () => {
        const found = events.find(match);
        if (found) resolve(found);
        else waiters.push(check);
      };
      check();
      void exited.then(() => setImmediate(() => reject(new Error(`contender ${child.pid} exited without an answer:\n${stderr}`))));
    });
  const outcome = find((e) => e.event !== 'ready');
  const ready = find((e) => e.event === 'ready').then(() => undefined);
  // A test that only waits for one of the two must not fail on the other's rejection.
  outcome.catch(() => {});
  ready.catch(() => {});
  return {
    pid: child.pid!,
    outcome,
    ready,
    go: () => child.stdin!.write('go\n'),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stderr: () => stderr,
  };
}

/** Kills every contender still running (for an afterEach). */
export async function killContenders(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}
