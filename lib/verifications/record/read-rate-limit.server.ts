// The limit on the browser's reads of one verification (app/api/verifications/[id]): each read is
// a call to the service with the dashboard's key, which counts against that key's rate limit. A
// signed-in person polling in a loop would otherwise spend the quota every other staff member
// needs. Per staff member, READ_RATE_LIMIT_PER_MINUTE: far above what the detail page's live
// refetches need (one per announced change, one per return to the tab), far below a script's pace.
// In memory, one limiter per process, unlike the create limit (create/rate-limit.server.ts), which every
// instance shares: a read is checked on every page view and refetch, and a database round trip
// would cost more than the read it guards. With several instances a person may read the limit
// once per instance a minute, still far below what would drain the service's quota.
import 'server-only';
import { getEnv } from '@/lib/env';
import { processSingleton } from '@/lib/platform/process-singleton';
import { createSlidingWindowLimiter, type SlidingWindowLimiter } from '@/lib/platform/sliding-window-limiter';

const MINUTE_MS = 60_000;

function getVerificationReadLimiter(): SlidingWindowLimiter {
  return processSingleton('verification-read-limiter', () =>
    createSlidingWindowLimiter({ limit: () => getEnv().READ_RATE_LIMIT_PER_MINUTE, windowMs: MINUTE_MS }),
  );
}

export type ReadRateLimitCheck = { allowed: true } | { allowed: false; message: string; retryAfterSeconds: number };

/** Takes one read slot for `staffId`; a refused read takes none. */
export function checkReadRateLimit(staffId: string, now = Date.now()): ReadRateLimitCheck {
  const decision = getVerificationReadLimiter().take(staffId, now);
  if (decision.allowed) return { allowed: true };
  const seconds = decision.retryAfterSeconds;
  return {
    allowed: false,
    retryAfterSeconds: seconds,
    message: `Too many refreshes: you have loaded verifications ${decision.limit} times in the last minute. Wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'}, then refresh again.`,
  };
}
