// The sandbox API's rate limit: at most N requests per minute per API key (default 3000,
// SANDBOX_RATE_LIMIT_PER_MINUTE). One limiter per process, in memory: one server process owns
// the embedded database and so sees every API request; a restart forgets at most a minute.
import 'server-only';
import { processSingleton } from '@/lib/platform/process-singleton';
import { createSlidingWindowLimiter, type SlidingWindowLimiter } from '@/lib/platform/sliding-window-limiter';
import { getSandboxConfig } from '@/lib/sandbox/config';

const WINDOW_MS = 60_000;

export type SandboxRateDecision = { allowed: true } | { allowed: false; limit: number; retryAfterSeconds: number };

function limiter(): SlidingWindowLimiter {
  // The limit is read on every request, so that a test (or an operator's restart) can change it;
  // an invalid value throws, and the route wrapper logs it and answers 500.
  return processSingleton('sandbox-rate-limit', () =>
    createSlidingWindowLimiter({ limit: () => getSandboxConfig().rateLimitPerMinute, windowMs: WINDOW_MS }),
  );
}

/** Counts one request for an API key; a refused request is not counted. */
export function takeSandboxRequest(keyId: string, now = Date.now()): SandboxRateDecision {
  return limiter().take(keyId, now);
}

/** How many API keys are held in memory (for tests). */
export function sandboxRateLimitKeys(): number {
  return limiter().size();
}

export function rateLimitMessage(decision: { limit: number; retryAfterSeconds: number }): string {
  return `Rate limit exceeded: at most ${decision.limit} requests per minute per API key; retry after ${decision.retryAfterSeconds} seconds`;
}
