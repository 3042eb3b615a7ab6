// Rate limits of the dashboard: a small sliding-window limiter, and the one that caps how many
// verification requests a staff member can create per minute.
//
// The counts live in this process's memory (on globalThis), not in the database: one server
// process owns the embedded database, so one process sees every request, and a restart merely
// forgets at most a minute of history. Running several processes would need a shared store.
import 'server-only';
import { getEnv } from '@/lib/env';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; limit: number };

export type RateLimiter = {
  /**
   * Counts one event for `key` at `now` if it fits into the window. A refused event is not
   * counted, so a client that keeps retrying does not push its own retry time further away.
   * `eventId` makes a repeat of the same event (a double submission) free: while the first is
   * inside the window, a second with the same id is allowed without using another slot.
   */
  take(key: string, now?: number, eventId?: string): RateLimitDecision;
  /** How many keys are held in memory (for tests of the memory bound). */
  size(): number;
};

type Entry = { at: number; eventId: string | undefined };

/**
 * A sliding-window log: each key keeps the times of its events in the last `windowMs`, at most
 * `limit` of them. Exact (no burst of 2×limit at a fixed window's edge), and cheap at the limits
 * used here. `limit` may be a function so that a configured value is read when used, not at import.
 */
export function createRateLimiter({ limit, windowMs }: { limit: number | (() => number); windowMs: number }): RateLimiter {
  const events = new Map<string, Entry[]>();
  let lastSweep = Number.NEGATIVE_INFINITY;

  // Memory stays bounded by the keys active within the last two windows: once per window every
  // key whose newest event has expired is dropped.
  function sweep(now: number) {
    if (now - lastSweep < windowMs) return;
    lastSweep = now;
    for (const [key, entries] of events) {
      const newest = entries[entries.length - 1];
      if (!newest || newest.at <= now - windowMs) events.delete(key);
    }
  }

  return {
    take(key, now = Date.now(), eventId) {
      sweep(now);
      const max = typeof limit === 'function' ? limit() : limit;
      // An event at exactly now - windowMs has left the window: that is what makes the
      // retry-after below exact (retrying at oldest + windowMs succeeds).
      const entries = (events.get(key) ?? []).filter((entry) => entry.at > now - windowMs);
      if (eventId !== undefined && entries.some((entry) => entry.eventId === eventId)) {
        events.set(key, entries);
        return { allowed: true };
      }
      if (entries.length < max) {
        entries.push({ at: now, eventId });
        events.set(key, entries);
        return { allowed: true };
      }
      events.set(key, entries);
      // Entries are in time order: the oldest frees the next slot. Whole seconds, rounded up, at
      // least 1 (Retry-After is whole seconds, and "0" would invite an immediate, refused retry).
      const freesAt = entries[entries.length - max]!.at + windowMs;
      return { allowed: false, limit: max, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) };
    },
    size: () => events.size,
  };
}

const MINUTE_MS = 60_000;
const CREATE_LIMITER = Symbol.for('verification-desk.create-verification-limiter');

/**
 * The process-wide limit on creating verification requests, per staff member (default 30 per
 * minute, CREATE_RATE_LIMIT_PER_MINUTE). On globalThis because Next.js bundles routes and server
 * actions separately and each bundle would otherwise get its own counts.
 */
export function getCreateVerificationLimiter(): RateLimiter {
  const holder = globalThis as unknown as Record<symbol, RateLimiter | undefined>;
  holder[CREATE_LIMITER] ??= createRateLimiter({ limit: () => getEnv().CREATE_RATE_LIMIT_PER_MINUTE, windowMs: MINUTE_MS });
  return holder[CREATE_LIMITER];
}

export type CreateRateLimitCheck = { allowed: true } | { allowed: false; title: string; message: string };

/**
 * Takes one creation slot for `staffId`. The form's submission key is the event id: a double
 * submission of the same form uses one slot, not two (the create-once guard then answers the
 * repeat with the first result, so nothing extra is created either).
 */
export function checkCreateRateLimit(staffId: string, submissionKey: string, now = Date.now()): CreateRateLimitCheck {
  const decision = getCreateVerificationLimiter().take(staffId, now, submissionKey);
  if (decision.allowed) return { allowed: true };
  const seconds = decision.retryAfterSeconds;
  return {
    allowed: false,
    title: 'Too many requests',
    message: `You have created ${decision.limit} requests in the last minute. Wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} and submit again; nothing was created.`,
  };
}
