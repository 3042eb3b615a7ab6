// Reads of a verification by id are most of the sandbox's API traffic: the dashboard reads a
// record on every detail page, every BFF read and after every webhook. Uncached, each read is a
// query to the embedded Postgres, which runs on this process's one thread, so the database would
// set the pace of every read. This cache keeps the rows last read, and is exact rather than
// approximate: every change to a verification's row goes through lifecycle.ts (transition,
// purge), which invalidates the id as soon as its transaction commits, before the change's
// webhook event can be sent.
//
// Coherent because the embedded database is a PGlite data directory, locked to one process
// (lib/platform/embedded-database.ts): no other process can write to it while this one runs.
//
// On a PostgreSQL server (DATABASE_URL) there is no cache: every read is a query. Several
// instances may serve the sandbox there, and a change committed by one is followed by its
// webhook, which the dashboard answers by reading the record again, possibly through another
// instance. A notice telling that instance to forget the row could arrive after that read, so a
// cache would hand out the old state exactly when it matters. And a query to a server does not
// run on this process's thread, which is what the cache saves on the embedded store.
//
// The race it guards against: a read whose SELECT ran before a change committed, but which stores
// its row after the change invalidated the id, would keep the old row. Each store names the
// generation it read at; any invalidation in between bumps the generation and the store is dropped.
import 'server-only';
import { LRUCache } from 'lru-cache';
import { isEmbeddedStore } from '@/lib/platform/database';
import { processSingleton } from '@/lib/platform/process-singleton';
import type { SandboxDb } from '@/lib/sandbox/db';
import type { verifications } from '@/lib/sandbox/schema';

type VerificationRow = typeof verifications.$inferSelect;

/** Rows kept per database (about 1 KB each): the records read recently, whatever their age. */
export const RECORD_CACHE_MAX_ENTRIES = 5_000;

export type RecordCache = {
  get(id: string): VerificationRow | undefined;
  /** The generation to hand back to `store` for a row about to be read from the database. */
  generation(): number;
  /** Keeps `row` unless the cache was invalidated since `readAt` (the row may then be stale). */
  store(id: string, row: VerificationRow, readAt: number): void;
  /** Forgets `id`; called once a change to its row has committed. */
  invalidate(id: string): void;
};

// Per database: tests open several, and the id spaces must not mix. A process singleton, because
// Next.js bundles each route separately and all must share one cache.
function caches(): WeakMap<SandboxDb, RecordCache> {
  return processSingleton('sandbox-record-caches', () => new WeakMap<SandboxDb, RecordCache>());
}

/** What a server gets: nothing is kept, every read goes to the database. */
const NO_CACHE: RecordCache = {
  get: () => undefined,
  generation: () => 0,
  store: () => {},
  invalidate: () => {},
};

export function recordCacheOf(db: SandboxDb): RecordCache {
  if (!isEmbeddedStore(db)) return NO_CACHE;
  let cache = caches().get(db);
  if (!cache) {
    cache = createRecordCache();
    caches().set(db, cache);
  }
  return cache;
}

function createRecordCache(): RecordCache {
  const rows = new LRUCache<string, VerificationRow>({ max: RECORD_CACHE_MAX_ENTRIES });
  let generation = 0;
  return {
    get: (id) => rows.get(id),
    generation: () => generation,
    store(id, row, readAt) {
      if (readAt === generation) rows.set(id, row);
    },
    invalidate(id) {
      generation += 1;
      rows.delete(id);
    },
  };
}
