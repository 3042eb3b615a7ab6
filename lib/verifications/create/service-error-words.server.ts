// What staff read when the service did not create a request, in their language: the create's
// side of lib/verification-service/messages.ts (the read's), with the same rules. Nothing from the error's message, stack, URL or upstream body is shown; the only
// upstream text is the `detail` of an `invalid` create, which names the field the service refused.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { VerificationServiceError } from '@/lib/verification-service/errors';
import type { ServiceErrorDescription } from '@/lib/verification-service/messages';

export async function describeCreateError(error: unknown): Promise<ServiceErrorDescription> {
  const t = await getTranslations('create.serviceError');
  if (!(error instanceof VerificationServiceError)) return { kind: 'unknown', title: t('unknownTitle'), message: t('unknownMessage') };
  return { kind: error.kind, ...(await words(error, t)) };
}

async function words(
  error: VerificationServiceError,
  t: Awaited<ReturnType<typeof getTranslations<'create.serviceError'>>>,
): Promise<{ title: string; message: string }> {
  switch (error.kind) {
    case 'unauthorized':
      return { title: t('keyRefusedTitle'), message: t('unauthorizedMessage') };
    // The contract answers 403 both for a bad key and for another company's record (§5); on create only the key can be the cause.
    case 'forbidden':
      return { title: t('keyRefusedTitle'), message: t('forbiddenMessage') };
    case 'not_found':
      return { title: t('notFoundTitle'), message: t('notFoundMessage') };
    case 'invalid':
      return {
        title: t('invalidTitle'),
        message: error.detail ? t('invalidWithDetail', { detail: withFullStop(error.detail) }) : t('invalidMessage'),
      };
    case 'unavailable': {
      // Not "unavailable right now": nothing answers at the address at all, which a wrong
      // VERIFICATION_API_URL or a stopped service causes as often as a passing outage.
      if (error.unreachable) return { title: t('unreachableTitle'), message: t('unreachableMessage') };
      const seconds = error.retryAfterSeconds;
      const wait =
        seconds === undefined
          ? t('wait.unknown')
          : seconds <= 5
            ? t('wait.fewSeconds')
            : seconds < 60
              ? t('wait.seconds', { count: seconds })
              : seconds < 3600
                ? t('wait.minutes', { count: Math.ceil(seconds / 60) })
                : t('wait.hours', { count: Math.ceil(seconds / 3600) });
      return error.status === 429
        ? { title: t('busyTitle'), message: t('busyMessage', { wait }) }
        : { title: t('unavailableTitle'), message: t('unavailableMessage', { wait }) };
    }
    case 'timeout':
      // A create whose answer was lost may exist upstream; sending it again would notify the person twice.
      return { title: t('timeoutTitle'), message: t('timeoutMessage') };
    case 'protocol':
      return { title: t('protocolTitle'), message: t('protocolMessage') };
  }
}

function withFullStop(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}
