// A sliding-window rate limiter kept in the process's memory: for each key, the times of its
// events in the last window. Exact (no burst of twice the limit at a fixed window's edge), and
// cheap under load: expired times are skipped by moving a start index rather than by copying
// the array, so a busy key with a generous limit costs the same per event as an idle one.

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number; limit: number };

export type SlidingWindowLimiter = {
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

/** One key's events in time order; those before `start` have left the window. */
type KeyWindow = { times: number[]; ids: Array<string | undefined>; start: number };

/** `limit` may be a function, so that a configured value is read when used, not when created. */
export function createSlidingWindowLimiter({
  limit,
  windowMs,
}: {
  limit: number | (() => number);
  windowMs: number;
}): SlidingWindowLimiter {
  const windows = new Map<string, KeyWindow>();
  let lastSweep = Number.NEGATIVE_INFINITY;

  // Memory stays bounded by the keys active within the last two windows: once per window every
  // key whose newest event has expired is dropped.
  function sweep(now: number) {
    if (now - lastSweep < windowMs) return;
    lastSweep = now;
    for (const [key, window] of windows) {
      const newest = window.times[window.times.length - 1];
      if (newest === undefined || newest <= now - windowMs) windows.delete(key);
    }
  }

  /** Drops the times at or before `cutoff`; amortised O(1) per event while the clock moves forward. */
  function dropExpired(window: KeyWindow, cutoff: number) {
    while (window.start < window.times.length && window.times[window.start]! <= cutoff) window.start += 1;
    if (window.start > 0 && window.start * 2 >= window.times.length) {
      window.times = window.times.slice(window.start);
      window.ids = window.ids.slice(window.start);
      window.start = 0;
    }
  }

  return {
    take(key, now = Date.now(), eventId) {
      sweep(now);
      const max = typeof limit === 'function' ? limit() : limit;
      let window = windows.get(key);
      if (!window) {
        window = { times: [], ids: [], start: 0 };
        windows.set(key, window);
      }
      // An event at exactly now - windowMs has left the window: that is what makes the
      // retry-after below exact (retrying at oldest + windowMs succeeds).
      dropExpired(window, now - windowMs);
      if (eventId !== undefined && window.ids.indexOf(eventId, window.start) !== -1) return { allowed: true };
      if (window.times.length - window.start < max) {
        // In order, so the oldest times stay at the front; only a clock that went back (or a
        // test that moved it) makes this walk past the last element.
        let at = window.times.length;
        while (at > window.start && window.times[at - 1]! > now) at -= 1;
        window.times.splice(at, 0, now);
        window.ids.splice(at, 0, eventId);
        return { allowed: true };
      }
      // The oldest event of the last `max` frees the next slot. Whole seconds, rounded up, at
      // least 1 (Retry-After is whole seconds, and "0" would invite an immediate, refused retry).
      const freesAt = window.times[window.times.length - max]! + windowMs;
      return { allowed: false, limit: max, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) };
    },
    size: () => windows.size,
  };
}
