// Keeps what the server writes readable by its own user only. The embedded database's files hold
// password hashes, webhook secrets and people's names, so no other local user may read them.
//
// Two things are needed, because PGlite's file system layer sets modes in two ways:
//   - most files and every folder it creates while it runs (new tables, WAL segments, caches) take
//     the process's umask, and it creates them at any moment of the process's life, long after the
//     open. So the umask is narrowed for the whole process, never just around the open: a umask
//     restored after the open would let the next table or WAL segment be created readable by all.
//   - the files of a fresh database (initdb's output, copied in) are chmod-ed to 0666 explicitly,
//     whatever the umask, and so are the files of a data directory an earlier version wrote. Those
//     are tightened by walking the directory (tightenToOwnerOnly).
// The data directory itself is 0700 before PGlite writes anything into it, so no other user can
// reach a file through it even in the moment before the walk tightens it.
import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** The umask bits that keep group and others out: folders 0700, files 0600. */
export const OWNER_ONLY_UMASK = 0o077;
const GROUP_AND_OTHER = 0o077;

/**
 * Narrows the process's umask so that nothing it creates from now on is readable or writable by
 * group or others (bits an operator's stricter umask removes stay removed). Process-wide and for
 * good: see the top of this file. Returns false where a umask cannot be set (a worker thread).
 */
export function restrictNewFilesToOwner(): boolean {
  try {
    // process.umask() without an argument is deprecated (it sets the mask twice); this sets it once
    // and widens it again only to keep what the previous mask removed besides group and others.
    const previous = process.umask(OWNER_ONLY_UMASK);
    if ((previous | OWNER_ONLY_UMASK) !== OWNER_ONLY_UMASK) process.umask(previous | OWNER_ONLY_UMASK);
    return true;
  } catch {
    return false;
  }
}

export type Tightening = {
  /** Folders and files whose group or other bits were removed. */
  tightened: number;
  /** Entries whose mode could not be changed (another user's file, say). */
  failed: number;
};

/**
 * Removes the group and other bits from `root` and from every folder and regular file under it
 * (0755 becomes 0700, 0666 becomes 0600; the owner's own bits stay as they are). Symbolic links are
 * neither followed nor changed, so a link cannot turn this into a chmod of a file elsewhere. An
 * entry that disappears meanwhile (a WAL segment recycled) is skipped.
 */
export async function tightenToOwnerOnly(root: string): Promise<Tightening> {
  const result: Tightening = { tightened: 0, failed: 0 };
  const visit = async (entry: string): Promise<void> => {
    let stats: Awaited<ReturnType<typeof lstat>>;
    try {
      stats = await lstat(entry);
    } catch {
      return;
    }
    if (!stats.isDirectory() && !stats.isFile()) return;
    if (stats.mode & GROUP_AND_OTHER) {
      try {
        await chmod(entry, stats.mode & 0o700);
        result.tightened++;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') result.failed++;
      }
    }
    if (!stats.isDirectory()) return;
    let names: string[];
    try {
      names = await readdir(entry);
    } catch {
      return;
    }
    for (const name of names) await visit(path.join(entry, name));
  };
  await visit(root);
  return result;
}
