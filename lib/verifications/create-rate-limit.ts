// The limit on creating verification requests: per staff member, CREATE_RATE_LIMIT_PER_MINUTE
// (default 30). One limiter per process, in memory: one server process owns the embedded
// database and so sees every create; a restart forgets at most a minute of history.
import 'server-only';
import { getEnv } from '@/lib/env';
import { processSingleton } from '@/lib/platform/process-singleton';
import { createSlidingWindowLimiter, type SlidingWindowLimiter } from '@/lib/platform/sliding-window-limiter';

const MINUTE_MS = 60_000;

export function getCreateVerificationLimiter(): SlidingWindowLimiter {
  return processSingleton('create-verification-limiter', () =>
    createSlidingWindowLimiter({ limit: () => getEnv().CREATE_RATE_LIMIT_PER_MINUTE, windowMs: MINUTE_MS }),
  );
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
