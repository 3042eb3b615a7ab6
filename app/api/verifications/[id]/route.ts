// BFF read of one verification for the browser's live query: the dashboard calls the service
// with its key and returns the record; errors come back as a safe message with a fitting status.
// Each read spends the service's quota, so each staff member gets a limited number per minute
// (lib/verifications/read-rate-limit.ts), answered 429 with Retry-After past it.

import { authorizedRoute } from '@/lib/auth/guards';
import { afterResponse } from '@/lib/platform/after-response';
import { jsonResponse } from '@/lib/platform/json-response';
import { logger } from '@/lib/platform/log';
import { getVerification, httpStatusFor, VerificationServiceError } from '@/lib/verification-service';
import { describeServiceError } from '@/lib/verification-service/messages';
import { checkReadRateLimit } from '@/lib/verifications/read-rate-limit';
import { refreshRegisterEntry } from '@/lib/verifications/register-writes';
import { canonicalVerificationId } from '@/lib/verifications/verification-id';

const log = logger.child({ area: 'verifications' });

export const dynamic = 'force-dynamic';

export const GET = authorizedRoute<{ id: string }>('verification:read', async (_request, staff, { params }) => {
  // The register knows each request under one spelling of its id (verification-id.ts).
  const id = canonicalVerificationId((await params).id);
  // Before the service is called: a refused read costs the service nothing.
  const rateLimit = checkReadRateLimit(staff.id);
  if (!rateLimit.allowed) {
    return jsonResponse({ error: rateLimit.message, kind: 'rate_limited' }, 429, { 'Retry-After': String(rateLimit.retryAfterSeconds) });
  }
  try {
    const record = await getVerification(id);
    // The register learns from the answer after it has gone out: the browser never waits for it.
    afterResponse(() => refreshRegisterEntry(id, record));
    return jsonResponse(record);
  } catch (error) {
    const { message, kind } = describeServiceError(error, 'read');
    const status = error instanceof VerificationServiceError ? httpStatusFor(error.kind) : 500;
    if (status === 500) log.error({ err: error, verificationId: id }, 'reading a verification failed unexpectedly');
    return jsonResponse({ error: message, kind }, status);
  }
});
