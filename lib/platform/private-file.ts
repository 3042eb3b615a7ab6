// A file only the server's own user may read (a secret handed to the operator), written so that
// no other user can read it at any moment: not while it is written, not if a copy was already
// there with wider permissions, not half-written.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Owner read/write, nobody else. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Writes `content` to `target` with mode 0600, atomically: a temporary file beside it is created
 * exclusively with that mode (the mode is applied by open(2) itself, so the file never exists
 * with wider permissions; the umask can only narrow it), filled and flushed, then renamed over
 * `target` — a reader sees the old file or the whole new one, and never a file made by someone else.
 */
export async function writePrivateFile(target: string, content: string): Promise<void> {
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(8).toString('hex')}.tmp`);
  // 'wx': O_CREAT | O_EXCL — fails rather than opening a file (or a symlink) planted at that name.
  const handle = await open(temporary, 'wx', PRIVATE_FILE_MODE);
  try {
    // Exactly 0600 even under an unusual umask that would have removed the owner's own bits.
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(content, 'utf8');
    await handle.sync();
    await handle.close();
    await rename(temporary, target);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Removes `target`; a file that is already gone is fine. */
export async function removeFile(target: string): Promise<void> {
  await rm(target, { force: true });
}
