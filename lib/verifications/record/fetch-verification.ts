// Browser-side read of one verification through the dashboard's own route (the service and
// its key are never contacted from the browser). Used by React Query.
import type { VerificationRecord } from '@/lib/verification-service/schemas';

/**
 * Why a read failed. `message` is the read route's own explanation, in the reader's language;
 * empty when the browser failed before one arrived (`status` 0: no connection) or the answer held
 * none: the page names those in its words.
 */
export class VerificationFetchError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'VerificationFetchError';
  }
}

export async function fetchVerification(id: string, signal?: AbortSignal): Promise<VerificationRecord> {
  let response: Response;
  try {
    response = await fetch(`/api/verifications/${encodeURIComponent(id)}`, {
      headers: { Accept: 'application/json' },
      cache: 'no-store',
      signal,
    });
  } catch {
    throw new VerificationFetchError('', 0);
  }
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  if (!response.ok) {
    const message = typeof body?.error === 'string' ? body.error : '';
    throw new VerificationFetchError(message, response.status);
  }
  return body as VerificationRecord;
}

/** Every verification query (a prefix key): what a live-stream resync invalidates. */
export const verificationQueriesKey = ['verification'] as const;
export const verificationQueryKey = (id: string) => [...verificationQueriesKey, id] as const;
