// The lock file of a process lock (process-lock.ts) on disk: created and replaced in one atomic
// step, so it is never seen half written, read back as its holder, and cleaned up after.
// A record is written to a private temporary file first and then hard-linked to the lock's name
// (which fails if the name exists) or renamed over an abandoned lock.
import { randomUUID } from 'node:crypto';
import { link, lstat, open, readdir, readFile, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LockOwner } from '@/lib/platform/process-lock-owner';

/** Who holds a lock file, as far as it can be told. */
export type LockHolder = {
  /** null when the file has no readable owner (an earlier version's lock, a file cut short). */
  owner: LockOwner | null;
  /** When the holder last touched the lock. */
  touchedAt: Date;
  /** This very holding: its nonce (or inode) and last touch. */
  identity: string;
};

// Temporary files and claims a crash left behind are removed once this old; a live contender
// holds them for a few milliseconds.
const LEFTOVER_AGE_MS = 60_000;

/** A file of this process's own beside the lock, holding `owner`'s record in full. */
async function writeTemporary(lockPath: string, owner: LockOwner): Promise<string> {
  const temporary = `${lockPath}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o600 });
  return temporary;
}

/** Creates the lock file with `owner` in it, unless the name exists. */
export async function createExclusive(lockPath: string, owner: LockOwner): Promise<boolean> {
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
export async function replace(lockPath: string, owner: LockOwner): Promise<boolean> {
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
export async function readHolder(lockPath: string): Promise<LockHolder | null> {
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
export async function removeIfOwned(file: string, owner: LockOwner): Promise<void> {
  const holder = await readHolder(file).catch(() => null);
  if (holder?.owner?.nonce === owner.nonce) await unlink(file).catch(() => {});
}

/**
 * Temporary files and claims left by a process that crashed in the middle of taking the lock.
 * Called by the holder: a claim names a holding that is no longer the lock, so it decides nothing.
 */
export async function removeLeftovers(lockPath: string): Promise<void> {
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
