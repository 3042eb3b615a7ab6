// A short-lived, in-process memory of sessions that were just validated, so a signed-in page,
// action or BFF read does not cost better-auth's session lookup (cookie signature + two queries)
// on every request. Correctness rests on invalidation, not on the TTL: every change that can end
// or narrow a session (sign-out, disabling an account, a role change, better-auth deleting a
// session or updating a user) calls forgetValidatedSessions(db) once it has committed.
//
// That call empties this process's memory at once and notifies SESSIONS_CHANGED_CHANNEL, which
// every instance on the database listens to (lib/platform/database-signals.ts): each of them
// empties its own memory when the notice arrives, and tells its open live streams to check their
// session again (onSessionsChanged). On the embedded store the notice is delivered in-process; on
// a server it reaches the other instances a moment after the change, over their listening
// connections. While an instance's listening connection is down, notices to it are lost, so it
// keeps nothing: every request is validated afresh until it listens again.
//
// A lookup that was already running when the memory was emptied is not stored, so it cannot put
// stale access back. The TTL only bounds how long a session's idle expiry goes without being
// refreshed by better-auth (its updateAge is 15 minutes).
import 'server-only';
import type { Database } from '@/lib/platform/database';
import { listenForSignals, type SignalSubscription, sendSignal } from '@/lib/platform/database-signals';
import { logger } from '@/lib/platform/log';
import { processSingleton } from '@/lib/platform/process-singleton';

const log = logger.child({ area: 'auth' });

export const SESSION_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

/** Notified after any change that can end or narrow sessions, by whichever instance made it. */
export const SESSIONS_CHANGED_CHANNEL = 'sessions_changed';

type AnyDatabase = Database<Record<string, unknown>>;

type Entry = { value: unknown; until: number };
type SessionCache = {
  entries: Map<string, Entry>;
  generation: number;
  /** Told when sessions may have changed anywhere: a notice, or listening again after a gap. */
  watchers: Set<() => void>;
  /** Settles once the listener is in place; nothing is kept while it is not listening. */
  subscription: Promise<SignalSubscription | undefined>;
};

// Per database (tests open several, and two handles on one server play two instances) and a
// process singleton, because Next.js bundles each route separately and an invalidation must
// reach every route, page and action bundle.
function caches(): WeakMap<AnyDatabase, SessionCache> {
  return processSingleton('validated-sessions', () => new WeakMap<AnyDatabase, SessionCache>());
}

function forgetHere(cache: SessionCache): void {
  cache.entries.clear();
  cache.generation += 1;
}

function tellWatchers(cache: SessionCache): void {
  for (const watcher of [...cache.watchers]) {
    try {
      watcher();
    } catch (error) {
      log.error({ err: error }, 'a watcher of session changes failed');
    }
  }
}

function cacheOf(db: AnyDatabase): SessionCache {
  let cache = caches().get(db);
  if (!cache) {
    const created: SessionCache = { entries: new Map(), generation: 0, watchers: new Set(), subscription: Promise.resolve(undefined) };
    created.subscription = listenForSignals(db, SESSIONS_CHANGED_CHANNEL, {
      onSignal: () => {
        forgetHere(created);
        tellWatchers(created);
      },
      onListening: (listening) => {
        forgetHere(created);
        // Back after a gap: whatever changed meanwhile was not heard, so streams check now.
        if (listening) tellWatchers(created);
      },
    }).then(
      (subscription) => subscription,
      // Without the notices a kept session could outlive its sign-out elsewhere: keep nothing.
      (error: unknown) => {
        log.warn({ err: error }, 'session cache disabled: could not listen for session changes');
        return undefined;
      },
    );
    caches().set(db, created);
    cache = created;
  }
  return cache;
}

export type RememberOptions = {
  /** The current time (tests move it). */
  now?: number;
  /** How long a validation is kept at most; SESSION_CACHE_TTL_MS unless a test says otherwise. */
  ttlMs?: number;
};

/**
 * The cached value for `key`, or the result of `validate`, kept until `expiresAt` or the TTL,
 * whichever comes first. `validate` returning `undefined` (no session) is never kept; nor is a
 * result whose validation overlapped an invalidation, nor anything while this instance cannot
 * hear the others' invalidations.
 */
export async function rememberValidatedSession<T>(
  db: AnyDatabase,
  key: string,
  validate: () => Promise<{ value: T; expiresAt: Date } | undefined>,
  { now = Date.now(), ttlMs = SESSION_CACHE_TTL_MS }: RememberOptions = {},
): Promise<T | undefined> {
  const cache = cacheOf(db);
  const subscription = await cache.subscription;
  if (!subscription?.listening()) return (await validate())?.value;

  const hit = cache.entries.get(key);
  if (hit && hit.until > now) return hit.value as T;
  if (hit) cache.entries.delete(key);

  const generation = cache.generation;
  const validated = await validate();
  if (!validated) return undefined;
  const until = Math.min(now + ttlMs, validated.expiresAt.getTime());
  if (cache.generation === generation && until > now && subscription.listening()) {
    // Bounded: past the limit, start over (staff are few; this only guards against floods).
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(key, { value: validated.value, until });
  }
  return validated.value;
}

/**
 * Ends every remembered session on every instance of `db`: in this process at once, in the
 * others when the notice reaches them. Call it once the change has committed (not inside its
 * transaction: this process would forget before the change is visible, and could remember the
 * old state again).
 */
export async function forgetValidatedSessions(db: AnyDatabase): Promise<void> {
  const cache = caches().get(db);
  if (cache) forgetHere(cache);
  await sendSignal(db, SESSIONS_CHANGED_CHANNEL);
}

/**
 * Calls `watcher` whenever sessions may have ended or narrowed, on any instance of `db` (this one
 * included): after every forgetValidatedSessions, and when this instance listens again after a
 * gap in which notices were lost. Returns the function that stops it.
 */
export function onSessionsChanged(db: AnyDatabase, watcher: () => void): () => void {
  const cache = cacheOf(db);
  cache.watchers.add(watcher);
  return () => {
    cache.watchers.delete(watcher);
  };
}
