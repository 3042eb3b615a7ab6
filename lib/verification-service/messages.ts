// The one place where a failed call to the verification service becomes words for staff: what
// happened and what to do next. Pages, server actions and route handlers all come here, so the
// same failure reads the same everywhere.
//
// Nothing from the error's message, stack, URL or upstream body is shown; the only upstream text
// is the `detail` of an `invalid` create, which names the field the service refused.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { VerificationServiceError, type VerificationServiceErrorKind } from './errors';

export type ServiceOperation = 'create' | 'read';

export interface ServiceErrorDescription {
  title: string;
  message: string;
  /** 'unknown' when the error did not come from the service client (a bug on our side). */
  kind: VerificationServiceErrorKind | 'unknown';
}

const CHECK_KEY = 'An administrator needs to check VERIFICATION_API_KEY.';
const CHECK_URL = 'an administrator needs to check VERIFICATION_API_URL.';
// A create whose answer was lost may exist upstream; sending it again would notify the person twice.
const MAY_HAVE_BEEN_CREATED = 'The request may have been created anyway — check Recent requests before trying again.';

export function describeServiceError(error: unknown, operation: ServiceOperation): ServiceErrorDescription {
  if (!(error instanceof VerificationServiceError)) {
    return {
      kind: 'unknown',
      title: 'Something went wrong',
      message: 'Something went wrong on our side. Try again; if it keeps happening, tell an administrator.',
    };
  }

  const creating = operation === 'create';
  switch (error.kind) {
    case 'unauthorized':
      return {
        kind: error.kind,
        title: 'API key refused',
        message: `${creating ? 'The request was not created. ' : ''}The dashboard's API key was refused. ${CHECK_KEY}`,
      };

    case 'forbidden':
      // The contract answers 403 both for a bad key and for another company's record (§5); on create only
      // the key can be the cause.
      return creating
        ? {
            kind: error.kind,
            title: 'API key refused',
            message: `The request was not created. The service refused the dashboard's API key. ${CHECK_KEY}`,
          }
        : {
            kind: error.kind,
            title: 'Not available to this organisation',
            message:
              "This verification belongs to another organisation, or the dashboard's API key was refused. " +
              `Check the id; if every lookup fails this way, ${CHECK_KEY.charAt(0).toLowerCase()}${CHECK_KEY.slice(1)}`,
          };

    case 'not_found':
      return creating
        ? {
            kind: error.kind,
            title: 'Service address not recognised',
            message: `The request was not created. The service did not recognise the address it was sent to; ${CHECK_URL}`,
          }
        : {
            kind: error.kind,
            title: 'Verification not found',
            message: 'No verification with this id was found. Check the id; records are also removed once their retention period ends.',
          };

    case 'invalid':
      if (!creating) {
        return {
          kind: error.kind,
          title: 'Invalid verification id',
          message: 'That is not a valid verification id. Check that you copied the whole id.',
        };
      }
      return {
        kind: error.kind,
        title: 'Request refused',
        message: error.detail
          ? `The service refused the request: ${withFullStop(error.detail)} Correct the form and submit again.`
          : 'The service refused the request as invalid. Check the form and submit again.',
      };

    case 'unavailable':
      if (error.unreachable) {
        // Not "unavailable right now": nothing answers at the address at all, which a wrong
        // VERIFICATION_API_URL or a stopped service causes as often as a passing outage.
        return {
          kind: error.kind,
          title: 'Cannot reach the service',
          message:
            `${creating ? 'The request was not created: the' : 'The'} dashboard cannot reach the verification service (its address does not answer). ` +
            'Try again in a minute; if it keeps happening, an administrator needs to check that the service is running and that VERIFICATION_API_URL points to it.',
        };
      }
      if (error.status === 429) {
        return {
          kind: error.kind,
          title: 'Service busy',
          message: `The verification service is unavailable right now: it is receiving too many requests. Try again ${waitFor(error.retryAfterSeconds) ?? 'in a minute'}.`,
        };
      }
      return {
        kind: error.kind,
        title: 'Service unavailable',
        message: `The verification service is unavailable right now. Try again ${waitFor(error.retryAfterSeconds) ?? 'in a minute'}.`,
      };

    case 'timeout':
      return {
        kind: error.kind,
        title: 'No answer in time',
        message: creating
          ? `The service did not answer in time. ${MAY_HAVE_BEEN_CREATED}`
          : 'The verification service did not answer in time. Try again in a minute.',
      };

    case 'protocol':
      return {
        kind: error.kind,
        title: 'Unexpected answer',
        message: creating
          ? `The service sent an answer the dashboard could not understand. ${MAY_HAVE_BEEN_CREATED} If it keeps happening, ${CHECK_URL}`
          : `The service sent an answer the dashboard could not understand. Try again in a minute; if it keeps happening, ${CHECK_URL}`,
      };
  }
}

/** "in about 30 seconds" / "in about 2 minutes" / "in about 1 hour"; undefined when unknown. */
function waitFor(seconds: number | undefined): string | undefined {
  if (seconds === undefined) return undefined;
  if (seconds <= 5) return 'in a few seconds';
  if (seconds < 60) return `in about ${seconds} seconds`;
  if (seconds < 3600) {
    const minutes = Math.ceil(seconds / 60);
    return `in about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  const hours = Math.ceil(seconds / 3600);
  return `in about ${hours} hour${hours === 1 ? '' : 's'}`;
}

function withFullStop(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
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
 * A failed read in the reader's language (messages/<language>/service.json): what pages, the
 * detail page's problem states and the lookup show. describeServiceError says the same in
 * English, for logs' callers and the API's JSON answers.
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
