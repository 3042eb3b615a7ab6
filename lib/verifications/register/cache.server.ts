// Register rows by verification id, kept in memory. The detail page reads its row on every view,
// and every refresh (a page view, the browser's refetch, a webhook) compares the service's answer
// with it. Uncached, each is a query to the embedded Postgres on the request's own thread, a
// visible part of the detail page's server render.
//
// Exact, not approximate, and without trusting its callers: Postgres says when to forget. A
// statement trigger on the table (migration 0003) notifies `register_changed` when any change
// commits — a create, a refresh, the webhook receiver, the retention purge, a test's raw SQL, a
// write by another instance on the same server — and the listener below empties the cache. A
// read that began before a change and ends after it is not kept (the generation counter).
//
// On the embedded store the notice arrives before the writer's own code runs on. On a server it
// arrives a moment later, over the listening connection (lib/platform/database-signals.ts), so
// this instance's own writers also call forgetRegisterEntries() as soon as they have written. While
// the listening connection is lost, nothing is kept and every read goes to the database.
import 'server-only';
import { LRUCache } from 'lru-cache';
import type { Db } from '@/lib/db';
import type { VerificationRequestRow } from '@/lib/db/schema';

/** A register row as its readers get it (RegisterEntry in queries.server.ts): without the contact hashes. */
type CachedRow = Omit<VerificationRequestRow, 'contactDigests'>;

import { listenForSignals, type SignalSubscription } from '@/lib/platform/database-signals';
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';

const log = logger.child({ area: 'verifications' });

/** Rows kept per database (under 1 KB each): the requests looked at recently. */
export const REGISTER_CACHE_MAX_ENTRIES = 5_000;

export const REGISTER_CHANGED_CHANNEL = 'register_changed';

type RegisterCache = {
  rows: LRUCache<string, CachedRow>;
  generation: number;
  /** Settles once the listener is in place; nothing is kept while it is not listening. */
  subscription: Promise<SignalSubscription | undefined>;
};

// Per database (tests open several) and a process singleton, because Next.js bundles each route
// separately and all of them must share one cache and one listener.
function caches(): WeakMap<Db, RegisterCache> {
  return processSingleton('register-caches', () => new WeakMap<Db, RegisterCache>());
}

function cacheOf(db: Db): RegisterCache {
  let cache = caches().get(db);
  if (!cache) {
    const created: RegisterCache = {
      rows: new LRUCache({ max: REGISTER_CACHE_MAX_ENTRIES }),
      generation: 0,
      subscription: Promise.resolve(undefined),
    };
    const forget = () => {
      created.generation += 1;
      created.rows.clear();
    };
    created.subscription = listenForSignals(db, REGISTER_CHANGED_CHANNEL, { onSignal: forget, onListening: forget }).then(
      (subscription) => subscription,
      // Without the notices a kept row could go stale: read from the database every time.
      (error: unknown) => {
        log.warn({ err: error }, 'register cache disabled: could not listen for register changes');
        return undefined;
      },
    );
    caches().set(db, created);
    cache = created;
  }
  return cache;
}

/**
 * The register row of `verificationId` (undefined when it is not in the register): from memory
 * when it was read since the last change, else by `read`, whose row is then kept. Rows are
 * shared between callers and must not be modified.
 */
export async function readRegisterEntry(
  db: Db,
  verificationId: string,
  read: () => Promise<CachedRow | undefined>,
): Promise<CachedRow | undefined> {
  const cache = cacheOf(db);
  const subscription = await cache.subscription;
  if (!subscription?.listening()) return read();
  const kept = cache.rows.get(verificationId);
  if (kept) return kept;
  const readAt = cache.generation;
  const row = await read();
  // Only rows are kept, not absences: ids looked up here but created elsewhere are few.
  if (row && cache.generation === readAt && subscription.listening()) cache.rows.set(verificationId, row);
  return row;
}

/**
 * Forgets what this process holds for `db`, at once: a writer calls it after its change, so its
 * own next read cannot meet the old row while the database's notice is still on its way.
 */
export function forgetRegisterEntries(db: Db): void {
  const cache = caches().get(db);
  if (!cache) return;
  cache.generation += 1;
  cache.rows.clear();
}
