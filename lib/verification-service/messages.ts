// Where a failed read from the verification service becomes words for staff, in their language
// (messages/<language>/service.json): what happened and what to do next. Pages and route handlers
// all come here, so the same failure reads the same everywhere. A failed create has its own words
// (lib/verifications/create/service-error-words.server.ts): what it must say differs.
//
// Nothing from the error's message, stack, URL or upstream body is shown; the only upstream text
// is the `detail` of an `invalid` create, which names the field the service refused.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { VerificationServiceError, type VerificationServiceErrorKind } from './errors';

export interface ServiceErrorDescription {
  title: string;
  message: string;
  /** 'unknown' when the error did not come from the service client (a bug on our side). */
  kind: VerificationServiceErrorKind | 'unknown';
}

export type ServiceRead<T> = { ok: true; value: T } | { ok: false; problem: ServiceErrorDescription };

/** Runs a read for a page that shows a problem box instead of failing when the service does. */
export async function tryServiceRead<T>(read: () => Promise<T>): Promise<ServiceRead<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (error) {
    return { ok: false, problem: await describeReadError(error) };
  }
}

/**
 * A failed read in the reader's language: what pages, the detail page's problem states, the
 * lookup and the read route show.
 */
export async function describeReadError(error: unknown): Promise<ServiceErrorDescription> {
  const t = await getTranslations('service.read');
  const tWait = await getTranslations('service.wait');
  if (!(error instanceof VerificationServiceError)) return { kind: 'unknown', title: t('unknownTitle'), message: t('unknownMessage') };
  const words = (key: string, values?: Record<string, string>) => ({
    kind: error.kind,
    title: t(`${key}Title`),
    message: t(`${key}Message`, values),
  });
  switch (error.kind) {
    case 'unauthorized':
      return words('keyRefused');
    case 'forbidden':
      return words('forbidden');
    case 'not_found':
      return words('notFound');
    case 'invalid':
      return words('invalid');
    case 'unavailable': {
      if (error.unreachable) return words('unreachable');
      const seconds = error.retryAfterSeconds;
      const wait =
        seconds === undefined
          ? tWait('unknown')
          : seconds <= 5
            ? tWait('fewSeconds')
            : seconds < 60
              ? tWait('seconds', { count: seconds })
              : seconds < 3600
                ? tWait('minutes', { count: Math.ceil(seconds / 60) })
                : tWait('hours', { count: Math.ceil(seconds / 3600) });
      return words(error.status === 429 ? 'busy' : 'unavailable', { wait });
    }
    case 'timeout':
      return words('timeout');
    case 'protocol':
      return words('protocol');
  }
}
