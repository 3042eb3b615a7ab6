// The one embedded PostgreSQL (PGlite) of this process, shared by the dashboard's tables and
// the sandbox's schema. PGlite does no locking of its own: two processes opening the same
// directory silently lose writes. So whoever opens a data directory on disk first takes a lock
// file in it (lib/platform/process-lock.ts), and anyone else (a CLI while the server runs) is
// refused with a message naming the process that holds it. A lock whose process has ended (a
// server killed with SIGKILL) is taken over at once, so a supervisor's immediate restart works.
// The instance is a process singleton because Next.js bundles instrumentation and routes
// separately, and each bundle would otherwise open its own copy of the directory.
// The directory holds password hashes, webhook secrets and people's names: it and everything in
// it are owner-only (lib/platform/owner-only-files.ts says how, and why the umask is process-wide).
import 'server-only';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { loadInMemoryTemplate } from '@/lib/platform/in-memory-template';
import { logger } from '@/lib/platform/log';
import { restrictNewFilesToOwner, tightenToOwnerOnly } from '@/lib/platform/owner-only-files';
import { acquireLock, describeHolder, type HeldLock, LockHeldError, type LockHolder } from '@/lib/platform/process-lock';
import { processSingleton } from '@/lib/platform/process-singleton';

const log = logger.child({ area: 'db' });

export const DATA_DIR_IN_USE_MESSAGE = 'the data directory is in use by a running server';

/** The lock file in a data directory. */
export const LOCK_FILE = 'server.lock';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    // e.g. "… (pid 1234 on host build-7, since 2026-11-24T10:00:00.000Z; /var/lib/verification-desk)"
    super(`${DATA_DIR_IN_USE_MESSAGE} (${describeHolder(holder)}; ${dataDir})`);
    this.name = 'DataDirInUseError';
  }
}

/** `memory://` (or an empty value) gives a throwaway in-memory database, used by tests. */
export function isInMemory(dataDir: string): boolean {
  return dataDir === '' || dataDir.startsWith('memory://');
}

type OpenDatabase = { pg: PGlite; release: () => Promise<void> };

/**
 * Postgres's memory settings, sized for this app rather than for a dedicated database server.
 * PGlite's wasm heap never shrinks and Postgres touches all of shared_buffers, so its default of
 * 128 MB alone would be a large share of the server's resident memory, before any load. The data
 * is small (a few tables, rows of a few hundred bytes) and a page that falls out of the buffer pool
 * is re-read from the OS page cache, so a small pool costs little speed. The defaults are kept:
 * `startParams` replaces them rather than adding to them.
 */
export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'wal_buffers=1MB',
  '-c',
  'work_mem=2MB',
  '-c',
  'temp_buffers=2MB',
];

/**
 * The extensions the migrations create, installed into every embedded database before it opens
 * (PGlite ships each as a bundle beside its own code): trigrams for the register's search.
 */
export const PGLITE_EXTENSIONS = { pg_trgm } as const;

type Registry = Map<string, Promise<OpenDatabase>>;

function registry(): Registry {
  return processSingleton<Registry>('databases', () => new Map());
}

export type OpenOptions = {
  /** How long to wait for a lock held by another process; a CLI does not wait, a server briefly does. */
  waitForLockMs?: number;
};

async function open(dataDir: string, options: OpenOptions): Promise<OpenDatabase> {
  if (isInMemory(dataDir)) {
    const pg = new PGlite({
      startParams: [...PGLITE_START_PARAMS],
      extensions: PGLITE_EXTENSIONS,
      loadDataDir: await loadInMemoryTemplate(),
    });
    await pg.waitReady;
    return { pg, release: () => pg.close() };
  }
  const dir = path.resolve(dataDir);
  if (!restrictNewFilesToOwner())
    log.warn({ dir }, 'could not narrow the umask here: new database files are tightened only at the next start');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let lock: HeldLock;
  try {
    lock = await acquireLock(path.join(dir, LOCK_FILE), {
      waitMs: options.waitForLockMs ?? 0,
      // On a shared disk the owner's process cannot be checked from another host: there, a lock
      // the holder has not touched for 15 s (it touches it every 5 s) counts as abandoned.
      staleMs: 15_000,
      refreshMs: 5_000,
      onCompromised: (holder) => {
        log.error({ dir, holder: holder?.owner ?? null }, 'lost the lock on the data directory: another process took it over');
      },
    });
  } catch (error) {
    if (error instanceof LockHeldError) throw new DataDirInUseError(dir, error.holder);
    throw error;
  }
  if (lock.tookOver) {
    const { from, reason } = lock.tookOver;
    log.warn(
      { dir, previousOwner: from.owner, lastTouchedAt: from.touchedAt.toISOString() },
      reason === 'process-ended'
        ? 'took over the lock on the data directory from a process that no longer runs (it crashed or was killed)'
        : 'took over a stale lock on the data directory (not touched for 15 s)',
    );
  }
  const unlock = () => lock.release();
  try {
    // Before PGlite reads anything: a directory an earlier version (or a copy) left open to others.
    const earlier = await tightenToOwnerOnly(dir);
    if (earlier.tightened > 0 || earlier.failed > 0) {
      log.warn(
        { dir, tightened: earlier.tightened, failed: earlier.failed },
        `tightened the data directory to owner-only: ${earlier.tightened} folders and files were open to other local users` +
          (earlier.failed > 0 ? `, ${earlier.failed} could not be changed` : ''),
      );
    }
    const pg = new PGlite({
      dataDir: path.join(dir, 'pgdata'),
      startParams: [...PGLITE_START_PARAMS],
      extensions: PGLITE_EXTENSIONS,
    });
    await pg.waitReady;
    // PGlite chmods the files of a fresh database to 0666 itself, whatever the umask; the folder
    // above them is 0700 already, so nobody else could reach them in between.
    const fresh = await tightenToOwnerOnly(dir);
    if (fresh.failed > 0) log.warn({ dir, failed: fresh.failed }, `${fresh.failed} database files could not be made owner-only`);
    return {
      pg,
      release: async () => {
        await pg.close();
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}

/** Opens (once per process) the database in `dataDir`, taking its lock. */
export function openDatabase(dataDir: string, options: OpenOptions = {}): Promise<PGlite> {
  const key = isInMemory(dataDir) ? 'memory://' : path.resolve(dataDir);
  const databases = registry();
  let opening = databases.get(key);
  if (!opening) {
    opening = open(dataDir, options);
    databases.set(key, opening);
    // A failed open must not poison later attempts (e.g. a server that waited on a CLI).
    opening.catch(() => databases.delete(key));
  }
  return opening.then((db) => db.pg);
}

/** Closes every embedded database this process opened and releases their locks (lib/platform/database.ts closes all stores). */
export async function closeEmbeddedDatabases(): Promise<void> {
  const databases = registry();
  const all = [...databases.values()];
  databases.clear();
  await Promise.allSettled(all.map(async (opening) => (await opening).release()));
}
