// @ts-check
// The processes the harness starts: stopping one (or its whole process group) without leaving
// anything behind, and reading what a process holds in memory, from /proc (Linux).
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Stops `child`: SIGTERM, then SIGKILL if it is still there after `graceMs`. With `group`, the
 * signals go to the process group the child leads (it was spawned `detached`), so whatever it
 * started stops too; the negative pid addresses that group and nothing else.
 * @param {import('node:child_process').ChildProcess} child
 * @param {Promise<unknown>} exited resolves when the child has exited (created when it was spawned)
 * @param {{ group?: boolean, graceMs?: number }} [options]
 */
export async function stopProcess(child, exited, { group = true, graceMs = 5_000 } = {}) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const target = group ? -child.pid : child.pid;
  try {
    process.kill(target, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const timer = setTimeout(() => {
    try {
      process.kill(target, 'SIGKILL');
    } catch {}
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Resident memory (VmRSS) of `pid` in MB, rounded to `digits` decimals.
 * @param {number} pid
 * @param {number} [digits]
 */
export function rssMb(pid, digits = 1) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const scale = 10 ** digits;
  return Math.round((Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024) * scale) / scale;
}

/**
 * Direct children of `pid`, from /proc.
 * @param {number} pid
 */
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

/** @param {number} pid */
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
 * @param {number} rootPid
 * @returns {{ pid: number, title: string, tree: Array<{ pid: number, cmd: string }> }}
 */
export function findServingProcess(rootPid) {
  const queue = [rootPid];
  /** @type {number[]} */
  const all = [];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
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
