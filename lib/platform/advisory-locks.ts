// The PostgreSQL advisory locks the app takes, in one place, so no two uses pick the same key.
// Whole-resource locks use the one-argument (bigint) form; per-key locks use the two-argument
// form (namespace, hashtext(key)), which PostgreSQL keeps apart from the one-argument keys.
// On the embedded store the locks are taken too and cost nothing: one process, one session.

/** Migrations at start-up: instances starting together on a fresh server apply them once. */
export const MIGRATIONS_LOCK = 7_311_046_201;
/** First-run setup: one administrator, whichever instance the form lands on. */
export const SETUP_LOCK = 7_311_046_202;
/** Live events: ids are handed out and notified in commit order (lib/live/bus.ts). */
export const LIVE_EVENTS_LOCK = 7_311_046_203;

/** Namespaces of the two-argument, per-key locks. */
export const KEYED_LOCK_NAMESPACE = {
  /** A shared rate limit's key (lib/platform/shared-rate-limit.ts). */
  rateLimit: 7301,
  /** A sign-in throttle counter (lib/auth/throttle.ts). */
  signInThrottle: 7302,
} as const;
