// The sandbox API's rate limit: at most N requests per minute per API key (default 3000,
// SANDBOX_RATE_LIMIT_PER_MINUTE). Its own small limiter rather than the dashboard's
// lib/rate-limit.ts: the sandbox is a separate service that merely shares the process.
//
// Counts live in memory on globalThis, not in the database: one server process owns the
// embedded database and so sees every API request; a restart forgets at most a minute.
import 'server-only';

const WINDOW_MS = 60_000;
const DEFAULT_PER_MINUTE = 3000;

/** The configured limit, read on every call so that a test (or an operator's restart) can change it. */
export function getSandboxRateLimitPerMinute(): number {
  const raw = process.env.SANDBOX_RATE_LIMIT_PER_MINUTE?.trim();
  if (!raw) return DEFAULT_PER_MINUTE;
  const limit = Number(raw);
  // Loud rather than silently unlimited: the wrapper logs this and answers 500.
  if (!Number.isInteger(limit) || limit < 1) {
    throw new Error('SANDBOX_RATE_LIMIT_PER_MINUTE must be a whole number of requests per minute (at least 1)');
  }
  return limit;
}

export type SandboxRateDecision = { allowed: true } | { allowed: false; limit: number; retryAfterSeconds: number };

/**
 * One key's request times in the last window, oldest first. Expired times are skipped by moving
 * `start` rather than by filtering the array: with a generous limit a busy key holds tens of
 * thousands of times, and copying them on every request made the limiter cost grow with the load.
 */
type KeyWindow = { times: number[]; start: number };
type Store = { requests: Map<string, KeyWindow>; lastSweep: number };

const STORE = Symbol.for('verification-desk.sandbox-rate-limit');

// On globalThis: Next.js bundles route handlers separately; every route must share the counts.
function store(): Store {
  const holder = globalThis as unknown as Record<symbol, Store | undefined>;
  holder[STORE] ??= { requests: new Map(), lastSweep: Number.NEGATIVE_INFINITY };
  return holder[STORE];
}

/** Drops the times at or before `cutoff`; amortised O(1) per request while the clock moves forward. */
function dropExpired(window: KeyWindow, cutoff: number): void {
  const { times } = window;
  while (window.start < times.length && times[window.start]! <= cutoff) window.start += 1;
  if (window.start > 0 && window.start * 2 >= times.length) {
    window.times = times.slice(window.start);
    window.start = 0;
  }
}

/**
 * Counts one request for an API key (sliding window: the times of its requests in the last
 * minute). A refused request is not counted, so hammering does not push the retry time further.
 */
export function takeSandboxRequest(keyId: string, now = Date.now()): SandboxRateDecision {
  const limit = getSandboxRateLimitPerMinute();
  const { requests } = sweep(store(), now);
  let window = requests.get(keyId);
  if (!window) {
    window = { times: [], start: 0 };
    requests.set(keyId, window);
  }
  // A request at exactly now - WINDOW_MS has left the window, so retrying at the announced time works.
  dropExpired(window, now - WINDOW_MS);
  const count = window.times.length - window.start;
  if (count < limit) {
    // In order, so the oldest times stay at the front; only a clock that went back (or a test
    // that moved it) makes this walk past the last element.
    let at = window.times.length;
    while (at > window.start && window.times[at - 1]! > now) at -= 1;
    window.times.splice(at, 0, now);
    return { allowed: true };
  }
  // The request that frees the next slot; whole seconds rounded up, at least 1 (Retry-After).
  const freesAt = window.times[window.times.length - limit]! + WINDOW_MS;
  return { allowed: false, limit, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) };
}

/** Once per window, drops keys without a request in the last window: memory stays bounded by active keys. */
function sweep(current: Store, now: number): Store {
  if (now - current.lastSweep < WINDOW_MS) return current;
  current.lastSweep = now;
  for (const [key, window] of current.requests) {
    const newest = window.times[window.times.length - 1];
    if (newest === undefined || newest <= now - WINDOW_MS) current.requests.delete(key);
  }
  return current;
}

/** How many API keys are held in memory (for tests). */
export function sandboxRateLimitKeys(): number {
  return store().requests.size;
}

export function rateLimitMessage(decision: { limit: number; retryAfterSeconds: number }): string {
  return `Rate limit exceeded: at most ${decision.limit} requests per minute per API key; retry after ${decision.retryAfterSeconds} seconds`;
}
