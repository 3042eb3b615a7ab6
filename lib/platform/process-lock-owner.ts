// Who holds a process lock (process-lock.ts), and whether that process still runs: the record a
// lock file holds, and the checks behind "abandoned the moment it is gone" on the same host.
// The boot id and the process's start time guard against a host that rebooted and a pid that was
// reused.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { processSingleton } from '@/lib/platform/process-singleton';

export type LockOwner = {
  pid: number;
  host: string;
  /** Linux's boot id: the same host name after a reboot is not the same running system. */
  bootId?: string;
  /** The process's start time (clock ticks after boot, from /proc): a reused pid has another. */
  processStart?: string;
  /** When the lock was taken (ISO 8601). */
  since: string;
  nonce: string;
};

/** A record for a lock this process is about to take; counted as held by this process until dropped. */
export function newOwner(): LockOwner {
  const owner = {
    pid: process.pid,
    host: os.hostname(),
    bootId: thisBootId(),
    processStart: processStat(process.pid)?.start,
    since: new Date().toISOString(),
    nonce: randomUUID(),
  };
  heldNonces().add(owner.nonce);
  return owner;
}

/** The nonces of the locks this process holds (one set for every bundle of a Next.js server). */
export function heldNonces(): Set<string> {
  return processSingleton('held-lock-nonces', () => new Set<string>());
}

export function isThisHost(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return false;
  const bootId = thisBootId();
  return !(owner.bootId && bootId && owner.bootId !== bootId);
}

/** Does the owner's process still run? Conservative: when in doubt, it does. */
export function isRunning(owner: LockOwner): boolean {
  // A record with this process's pid but another start time, or (without /proc) one this process
  // does not hold, was left by an earlier process with the same pid: a container's first process
  // gets the same pid at every start.
  if (owner.pid === process.pid) {
    const start = processStat(process.pid)?.start;
    return start && owner.processStart ? start === owner.processStart : heldNonces().has(owner.nonce);
  }
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const stat = processStat(owner.pid);
  if (!stat) return true; // no /proc: the signal is all there is to go on
  // A killed process whose parent has not collected it yet still answers signal 0.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return !owner.processStart || owner.processStart === stat.start;
}

function thisBootId(): string | undefined {
  return processSingleton('boot-id', () => ({ value: readOptional('/proc/sys/kernel/random/boot_id')?.trim() })).value;
}

/** State and start time of `pid`, from /proc (Linux); undefined elsewhere or when it has gone. */
function processStat(pid: number): { state: string; start: string } | undefined {
  const stat = readOptional(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  // After the command name (in parentheses, which may itself hold spaces and parentheses) come
  // the fields from the third on: state first, start time (the 22nd) 19 places later.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [state, start] = [fields[0], fields[19]];
  return state && start ? { state, start } : undefined;
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
