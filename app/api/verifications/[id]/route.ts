// BFF read of one verification for the browser's live query: the dashboard calls the service
// with its key and returns the record; errors come back as a safe message with a fitting status.
// Each read spends the service's quota, so each staff member gets a limited number per minute
// (lib/verifications/record/read-rate-limit.server.ts), answered 429 with Retry-After past it.

import { authorizedRoute } from '@/lib/auth/guards';
import { jsonResponse } from '@/lib/platform/json-response';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import { checkReadRateLimit } from '@/lib/verifications/record/read-rate-limit.server';
import { readVerification } from '@/lib/verifications/record/read-verification.server';

export const dynamic = 'force-dynamic';

export const GET = authorizedRoute<{ id: string }>('verification:read', async (_request, staff, { params }) => {
  // The register knows each request under one spelling of its id (lib/verification-service/contract/verification-id.ts).
  const id = canonicalVerificationId((await params).id);
  // Before the service is called: a refused read costs the service nothing.
  const rateLimit = checkReadRateLimit(staff.id);
  if (!rateLimit.allowed) {
    return jsonResponse({ error: rateLimit.message, kind: 'rate_limited' }, 429, { 'Retry-After': String(rateLimit.retryAfterSeconds) });
  }
  const read = await readVerification(id);
  if (!read.ok) return jsonResponse({ error: read.failure.message, kind: read.failure.kind }, read.failure.httpStatus);
  return jsonResponse(read.record);
});
