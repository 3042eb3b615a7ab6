// A lock file that names the process holding it, so that a lock left behind by a crash can be
// taken over at once, and a refusal can say who holds it.
//
// The lock is a file whose content is its owner: pid, host name, boot id and the process's start
// time (the last two guard against a host that rebooted and a pid that was reused), when it was
// taken, and a random nonce that identifies this one holding. The owner touches the file every
// `refreshMs`.
//
// Taking the lock is one atomic step: the record is written to a private temporary file first and
// hard-linked to the lock's name, which fails if the name exists, so a lock file is never seen
// half written. When it exists, its owner is judged:
//   - same host (same name and boot id): held while the process lives (signal 0 reaches it, it is
//     no zombie, and its start time is still the recorded one), abandoned the moment it is gone;
//   - another host (a data directory on a shared disk), or a file without a readable owner (a lock
//     of an earlier version, which was a directory): held until its last touch is `staleMs` old.
// Taking over an abandoned lock is the delicate part: two contenders may judge the same lock
// abandoned at the same moment, and if both replaced it, both would believe they own it. So only
// the contender that takes a second lock, the claim, named after the exact holding it judged (its
// nonce and last touch), may replace it; it then checks that the lock is still that holding and
// renames its own record over it. The claim is taken with this same function, so a contender that
// crashed while holding a claim is itself taken over, by the same rule, one level down.
// Anyone else can only create the lock where none exists, which the link refuses while the
// abandoned one is still there: there is no moment at which two processes both hold it.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, lstat, open, readdir, readFile, rename, rmdir, unlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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

/** Who holds a lock file, as far as it can be told. */
export type LockHolder = {
  /** null when the file has no readable owner (an earlier version's lock, a file cut short). */
  owner: LockOwner | null;
  /** When the holder last touched the lock. */
  touchedAt: Date;
  /** This very holding: its nonce (or inode) and last touch. */
  identity: string;
};

export class LockHeldError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super(`${lockPath} is held by ${describeHolder(holder)}`);
    this.name = 'LockHeldError';
  }
}

export type HeldLock = {
  owner: LockOwner;
  /** The abandoned lock this one replaced, if any, and why it counted as abandoned. */
  tookOver: TakeOver | null;
  /** Stops refreshing and removes the lock file, if it is still this holding's. */
  release(): Promise<void>;
};

/** 'process-ended': its owner on this host no longer runs; 'stale': not touched for `staleMs`. */
export type TakeOver = { from: LockHolder; reason: 'process-ended' | 'stale' };

export type AcquireOptions = {
  /** How long to keep trying while a live owner holds the lock; 0: one try. */
  waitMs?: number;
  /** How old a lock of another host (or without an owner) must be to count as abandoned. */
  staleMs?: number;
  /** How often the owner touches its lock. */
  refreshMs?: number;
  /** Called when the lock turns out to be no longer this holding's (another host judged it stale). */
  onCompromised?: (holder: LockHolder | null) => void;
};

const RETRY_MS = 250;
// Temporary files and claims a crash left behind are removed once this old; a live contender
// holds them for a few milliseconds.
const LEFTOVER_AGE_MS = 60_000;

/** "pid 1234 on host build-7, since 2026-11-24T10:00:00.000Z" (or why the owner is unknown). */
export function describeHolder(holder: LockHolder): string {
  const { owner } = holder;
  if (!owner) return `an unknown owner (a lock without owner details, last touched ${holder.touchedAt.toISOString()})`;
  return `pid ${owner.pid} on host ${owner.host}, since ${owner.since}`;
}

/**
 * Takes the lock file `lockPath`, taking over at once a lock whose owner has ended on this host,
 * waiting up to `waitMs` for a live one. Throws LockHeldError naming the holder.
 */
export async function acquireLock(lockPath: string, options: AcquireOptions = {}): Promise<HeldLock> {
  const { waitMs = 0, staleMs = 15_000, refreshMs = 5_000, onCompromised } = options;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = await tryAcquire(lockPath, staleMs);
    if (result.acquired) {
      await removeLeftovers(lockPath);
      return holding(lockPath, result.owner, result.tookOver, refreshMs, onCompromised);
    }
    if (Date.now() >= deadline) throw new LockHeldError(lockPath, result.holder);
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/** How long a contender that lost the claim first waits for the takeover under way to finish. */
const TAKEOVER_SETTLE_MS = 20;

type Attempt = { acquired: true; owner: LockOwner; tookOver: TakeOver | null } | { acquired: false; holder: LockHolder };

async function tryAcquire(lockPath: string, staleMs: number): Promise<Attempt> {
  // Each pass either ends or saw the lock change under it (released, taken over by another): a
  // few passes settle it; a lock that keeps changing counts as held by whoever holds it last.
  let last: LockHolder | null = null;
  for (let pass = 0; pass < 5; pass++) {
    const owner = newOwner();
    let kept = false;
    try {
      if (await createExclusive(lockPath, owner)) {
        kept = true;
        return { acquired: true, owner, tookOver: null };
      }
      const holder = await readHolder(lockPath);
      if (!holder) continue; // released in between: try again
      last = holder;
      const reason = abandonment(holder, staleMs);
      if (!reason) return { acquired: false, holder };

      // Abandoned: only the contender holding the claim on exactly this holding may replace it.
      const claimPath = `${lockPath}.takeover-${holder.identity}`;
      const claim = await tryAcquire(claimPath, staleMs);
      if (!claim.acquired) {
        // Another contender is taking over: wait for it to finish, then judge the lock it leaves,
        // so a refusal names the lock's new owner rather than a contender that may yet lose.
        last = claim.holder;
        await new Promise((resolve) => setTimeout(resolve, TAKEOVER_SETTLE_MS * (pass + 1)));
        continue;
      }
      try {
        const current = await readHolder(lockPath);
        if (current?.identity !== holder.identity) continue; // replaced or released meanwhile: judge again
        if (await replace(lockPath, owner)) {
          kept = true;
          return { acquired: true, owner, tookOver: { from: holder, reason } };
        }
      } finally {
        await removeIfOwned(claimPath, claim.owner);
        heldNonces().delete(claim.owner.nonce);
      }
    } finally {
      if (!kept) heldNonces().delete(owner.nonce);
    }
  }
  return { acquired: false, holder: last ?? { owner: null, touchedAt: new Date(), identity: 'changing' } };
}

/** Why the lock counts as abandoned, or null while it is held. */
function abandonment(holder: LockHolder, staleMs: number): TakeOver['reason'] | null {
  const { owner } = holder;
  if (owner && isThisHost(owner)) return isRunning(owner) ? null : 'process-ended';
  return Date.now() - holder.touchedAt.getTime() > staleMs ? 'stale' : null;
}

function isThisHost(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return false;
  const bootId = thisBootId();
  return !(owner.bootId && bootId && owner.bootId !== bootId);
}

/** Does the owner's process still run? Conservative: when in doubt, it does. */
function isRunning(owner: LockOwner): boolean {
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

/** A record for a lock this process is about to take; counted as held by this process until dropped. */
function newOwner(): LockOwner {
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

/** The nonces of the locks this process holds (one set for every bundle of a Next.js server). */
function heldNonces(): Set<string> {
  return processSingleton('held-lock-nonces', () => new Set<string>());
}

/** A file of this process's own beside the lock, holding `owner`'s record in full. */
async function writeTemporary(lockPath: string, owner: LockOwner): Promise<string> {
  const temporary = `${lockPath}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o600 });
  return temporary;
}

/** Creates the lock file with `owner` in it, unless the name exists. */
async function createExclusive(lockPath: string, owner: LockOwner): Promise<boolean> {
  const temporary = await writeTemporary(lockPath, owner);
  try {
    await link(temporary, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: an exclusive create, then the record. A reader that comes
    // in between sees a fresh lock without an owner, which counts as held.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return await createByOpen(lockPath, owner);
    throw error;
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

async function createByOpen(lockPath: string, owner: LockOwner): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lockPath, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${JSON.stringify(owner)}\n`);
  } finally {
    await handle.close();
  }
  return true;
}

/** Puts `owner` in the place of the (abandoned, claimed) lock at `lockPath`. */
async function replace(lockPath: string, owner: LockOwner): Promise<boolean> {
  const temporary = await writeTemporary(lockPath, owner);
  try {
    await rename(temporary, lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    // An earlier version's lock is a directory, which a file cannot be renamed over. Removed,
    // its name is free for anyone: if another contender creates it first, that one holds it.
    await rmdir(lockPath).catch(() => {});
    return await createExclusive(lockPath, owner);
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

/** The holder of the lock at `lockPath`, or null when there is none. */
async function readHolder(lockPath: string): Promise<LockHolder | null> {
  let stats: Awaited<ReturnType<typeof lstat>>;
  let content = '';
  try {
    stats = await lstat(lockPath);
    if (stats.isFile()) content = await readFile(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const owner = parseOwner(content);
  const touched = Math.floor(stats.mtimeMs);
  return { owner, touchedAt: new Date(touched), identity: `${owner ? owner.nonce : `inode${stats.ino}`}-${touched}` };
}

function parseOwner(content: string): LockOwner | null {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' && record[key] !== '' ? (record[key] as string) : undefined);
  const pid = record.pid;
  const [host, since, nonce] = [text('host'), text('since'), text('nonce')];
  // The nonce becomes part of a file name (the claim): only the characters a UUID has.
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0 || !host || !since || !nonce || !/^[0-9a-f-]{1,64}$/.test(nonce)) {
    return null;
  }
  return { pid, host, since, nonce, bootId: text('bootId'), processStart: text('processStart') };
}

/** Removes `file` if it still holds `owner`'s record. */
async function removeIfOwned(file: string, owner: LockOwner): Promise<void> {
  const holder = await readHolder(file).catch(() => null);
  if (holder?.owner?.nonce === owner.nonce) await unlink(file).catch(() => {});
}

/**
 * Temporary files and claims left by a process that crashed in the middle of taking the lock.
 * Called by the holder: a claim names a holding that is no longer the lock, so it decides nothing.
 */
async function removeLeftovers(lockPath: string): Promise<void> {
  const directory = path.dirname(lockPath);
  const prefix = `${path.basename(lockPath)}.`;
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !(name.endsWith('.tmp') || name.startsWith(`${prefix}takeover-`))) continue;
    const file = path.join(directory, name);
    try {
      if (Date.now() - (await lstat(file)).mtimeMs > LEFTOVER_AGE_MS) await unlink(file);
    } catch {
      // gone already
    }
  }
}

function holding(
  lockPath: string,
  owner: LockOwner,
  tookOver: TakeOver | null,
  refreshMs: number,
  onCompromised: AcquireOptions['onCompromised'],
): HeldLock {
  let lost = false;
  const refresh = async () => {
    const current = await readHolder(lockPath).catch(() => null);
    if (current?.owner?.nonce !== owner.nonce) {
      lost = true;
      clearInterval(timer);
      onCompromised?.(current);
      return;
    }
    const now = new Date();
    await utimes(lockPath, now, now).catch(() => {});
  };
  // The timer must not keep a CLI's process alive.
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  return {
    owner,
    tookOver,
    release: async () => {
      clearInterval(timer);
      heldNonces().delete(owner.nonce);
      if (!lost) await removeIfOwned(lockPath, owner);
    },
  };
}
