// Reads of a verification by id are most of the sandbox's API traffic: the dashboard reads a
// record on every detail page, every BFF read and after every webhook. Uncached, each read is a
// query to the embedded Postgres, which runs on this process's one thread, so the database would
// set the pace of every read. This cache keeps the rows last read, and is exact rather than
// approximate: every change to a verification's row goes through lifecycle.ts (transition,
// purge), which invalidates the id as soon as its transaction commits, before the change's
// webhook event can be sent.
//
// Coherent because the sandbox's database is a PGlite data directory, locked to one process
// (lib/platform/embedded-database.ts): no other process can write to it while this one runs.
//
// The race it guards against: a read whose SELECT ran before a change committed, but which stores
// its row after the change invalidated the id, would keep the old row. Each store names the
// generation it read at; any invalidation in between bumps the generation and the store is dropped.
import { processSingleton } from '@/lib/platform/process-singleton';
import 'server-only';
import { LRUCache } from 'lru-cache';
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

export function recordCacheOf(db: SandboxDb): RecordCache {
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
