// BFF read of one verification for the browser's live query: the dashboard calls the service
// with its key and returns the record; errors come back as a safe message with a fitting status.
import { afterResponse } from '@/lib/after-response';
import { authorizedRoute } from '@/lib/auth/guards';
import { logger } from '@/lib/log';
import { getVerification, VerificationServiceError } from '@/lib/verification-service';
import { describeServiceError } from '@/lib/verification-service/messages';
import { refreshRegisterEntry } from '@/lib/verifications/register';

const log = logger.child({ area: 'verifications' });

export const dynamic = 'force-dynamic';

const STATUS_BY_KIND: Record<VerificationServiceError['kind'], number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  unauthorized: 502,
  protocol: 502,
  unavailable: 503,
  timeout: 504,
};

/**
 * Not kept by any cache. `no-transform` also keeps Next.js from gzipping the answer (its
 * compression honours it): for a record of a few hundred bytes that costs more CPU than it saves.
 */
const noStore = { 'Cache-Control': 'no-store, no-transform' };

/** JSON with its Content-Length. */
function json(body: unknown, status = 200): Response {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return new Response(bytes, {
    status,
    headers: { ...noStore, 'Content-Type': 'application/json', 'Content-Length': String(bytes.byteLength) },
  });
}

export const GET = authorizedRoute<{ id: string }>('verification:read', async (_request, _staff, { params }) => {
  const { id } = await params;
  try {
    const record = await getVerification(id);
    // The register learns from the answer after it has gone out: the browser never waits for it.
    afterResponse(() => refreshRegisterEntry(id, record));
    return json(record);
  } catch (error) {
    const { message, kind } = describeServiceError(error, 'read');
    const status = error instanceof VerificationServiceError ? STATUS_BY_KIND[error.kind] : 500;
    if (status === 500) log.error({ err: error, verificationId: id }, 'reading a verification failed unexpectedly');
    return json({ error: message, kind }, status);
  }
});
