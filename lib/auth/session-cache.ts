// A short-lived, in-process memory of sessions that were just validated, so a signed-in page,
// action or BFF read does not cost better-auth's session lookup (cookie signature + two queries)
// on every request. Correctness rests on invalidation, not on the TTL: every change that can end
// or narrow a session (sign-out, disabling an account, a role change, better-auth deleting a
// session or updating a user) calls forgetValidatedSessions() once it has happened, and a lookup
// that was already running at that moment is not stored, so it cannot put stale access back.
// In-process invalidation is complete because one process owns the database (the data directory
// is locked; the CLIs refuse while the server runs). The TTL only bounds how long a session's
// idle expiry goes without being refreshed by better-auth (its updateAge is 15 minutes).
import { processSingleton } from '@/lib/platform/process-singleton';
import 'server-only';

export const SESSION_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

type Entry<T> = { value: T; until: number };
type Cache = { entries: Map<string, Entry<unknown>>; generation: number };

// One per process (a process singleton): an invalidation must reach every route, page and
// action bundle.
function cache(): Cache {
  return processSingleton<Cache>('validated-sessions', () => ({ entries: new Map(), generation: 0 }));
}

/**
 * The cached value for `key`, or the result of `validate`, kept until `expiresAt` or the TTL,
 * whichever comes first. `validate` returning `undefined` (no session) is never kept; nor is a
 * result whose validation overlapped an invalidation.
 */
export async function rememberValidatedSession<T>(
  key: string,
  validate: () => Promise<{ value: T; expiresAt: Date } | undefined>,
  now = Date.now(),
): Promise<T | undefined> {
  const current = cache();
  const hit = current.entries.get(key);
  if (hit && hit.until > now) return hit.value as T;
  if (hit) current.entries.delete(key);

  const generation = current.generation;
  const validated = await validate();
  if (!validated) return undefined;
  const until = Math.min(now + SESSION_CACHE_TTL_MS, validated.expiresAt.getTime());
  if (current.generation === generation && until > now) {
    // Bounded: past the limit, start over (staff are few; this only guards against floods).
    if (current.entries.size >= MAX_ENTRIES) current.entries.clear();
    current.entries.set(key, { value: validated.value, until });
  }
  return validated.value;
}

/** Ends every remembered session at once; the next request of each is validated afresh. */
export function forgetValidatedSessions(): void {
  const current = cache();
  current.entries.clear();
  current.generation += 1;
}
