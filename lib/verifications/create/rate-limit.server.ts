// The limit on creating verification requests: per staff member, CREATE_RATE_LIMIT_PER_MINUTE
// (default 30). Counted in the database (rate-limit-events.server.ts), so that it holds for the whole
// deployment: with several instances behind a load balancer, a per-process count would allow
// 30 on each of them.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { getEnv } from '@/lib/env';
import type { RateLimitRefusal, RateLimitTake, SharedRateLimiter } from '@/lib/platform/shared-rate-limit';
import { dashboardRateLimiter } from './rate-limit-events.server';

const MINUTE_MS = 60_000;

/** `db` is for tests that play a second instance; the server uses its own database. */
export function createVerificationLimiter(db?: Parameters<typeof dashboardRateLimiter>[1]): SharedRateLimiter {
  return dashboardRateLimiter({ name: 'create-verification', limit: () => getEnv().CREATE_RATE_LIMIT_PER_MINUTE, windowMs: MINUTE_MS }, db);
}

export type CreateRateLimitCheck = { allowed: true } | { allowed: false; title: string; message: string };

/**
 * Takes one creation slot for `staffId`. The form's submission key is the event id: a double
 * submission of the same form uses one slot, not two (the create-once guard then answers the
 * repeat with the first result, so nothing extra is created either). The create itself takes
 * its slot inside its first statement (createLimitQuery, create-verification.server.ts); this is the
 * same decision on its own.
 */
export async function checkCreateRateLimit(staffId: string, submissionKey: string, now?: number): Promise<CreateRateLimitCheck> {
  const decision = await createVerificationLimiter().take(staffId, { eventId: submissionKey, now });
  return decision.allowed ? { allowed: true } : { allowed: false, ...(await createLimitRefusal(decision)) };
}

/** The slot decision for one submission, as a query to run inside the create's first statement. */
export function createLimitQuery(staffId: string, submissionKey: string, now?: number): RateLimitTake {
  return createVerificationLimiter().takeQuery(staffId, { eventId: submissionKey, now });
}

/** What staff are told when the limit refuses a create, in their language. */
export async function createLimitRefusal(decision: RateLimitRefusal): Promise<{ title: string; message: string }> {
  const t = await getTranslations('create.action');
  return {
    title: t('rateLimitTitle'),
    message: t('rateLimitMessage', { limit: decision.limit, seconds: decision.retryAfterSeconds }),
  };
}
