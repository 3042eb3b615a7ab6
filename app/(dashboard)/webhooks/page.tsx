// Sandbox mode only: the webhook events the embedded sandbox sent for this company, to which
// endpoints, and how every attempt went — read from the sandbox over HTTP like everything else.
// Delivery logs are operational detail (endpoint addresses, receiver failures), so admins only.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import { Alert } from '@/components/ui/alert';
import { DataTable, idTextClasses } from '@/components/ui/data-table';
import { Link } from '@/components/ui/link';
import { LinkPendingHint } from '@/components/ui/link-pending-hint';
import { LocalTime } from '@/components/ui/local-time';
import { requireStaff } from '@/lib/auth/session';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';
import { cn } from '@/lib/utils';
import { getSandboxWebhooks, type SandboxWebhooks } from '@/lib/verification-service';
import { tryServiceRead } from '@/lib/verification-service/messages';

// No other site is told this page's address. (Not 'no-referrer': under it the sign-out form says
// "Origin: null", and sign-out refuses it.)
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('sandbox.webhooks');
  return { title: t('title'), referrer: 'same-origin' };
}

// i18n: t = sandbox.webhooks
type Translator = ReturnType<typeof useTranslations<'sandbox.webhooks'>>;

type Delivery = SandboxWebhooks['messages'][number]['deliveries'][number];
type Attempt = Delivery['attempts'][number];

const deliveryStyles = {
  succeeded: 'bg-emerald-50 text-emerald-900 ring-emerald-300',
  pending: 'bg-amber-50 text-amber-900 ring-amber-300',
  failed: 'bg-red-50 text-red-900 ring-red-300',
  queued: 'bg-slate-100 text-slate-800 ring-slate-300',
} as const;

const EVENTS = ['created', 'completed', 'expired', 'failed', 'purged'] as const;

function isOneOf<T extends string>(list: readonly T[], value: string): value is T {
  return (list as readonly string[]).includes(value);
}

function DeliveryStatus({ delivery }: { delivery: Delivery }) {
  const t = useTranslations('sandbox.webhooks');
  // A pending delivery that has not been tried yet is queued, not retrying.
  const status = delivery.status === 'pending' && delivery.attemptCount === 0 ? 'queued' : delivery.status;
  const style = isOneOf(Object.keys(deliveryStyles) as (keyof typeof deliveryStyles)[], status)
    ? { label: t(`status.${status}`), className: deliveryStyles[status] }
    : { label: status, className: deliveryStyles.queued };
  return (
    <span className={cn('inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', style.className)}>{style.label}</span>
  );
}

/** An attempt's outcome: the receiver's HTTP status, or the error the sandbox met (as it reported it). */
function attemptResult(attempt: Attempt, t: Translator): string {
  return attempt.responseStatus !== null ? t('http', { status: attempt.responseStatus }) : (attempt.error ?? t('noAnswer'));
}

/** `verification.completed` → "completed", in the reader's words when the event is known. */
function eventLabel(type: string, t: Translator): string {
  const event = type.startsWith('verification.') ? type.slice('verification.'.length) : type;
  return isOneOf(EVENTS, event) ? t(`events.${event}`) : event;
}

export default async function WebhooksPage() {
  await requireStaff('audit:read', '/webhooks');
  if (!isSandboxEnabled()) notFound();

  const [read, t] = await Promise.all([tryServiceRead(getSandboxWebhooks), getTranslations('sandbox.webhooks')]);
  const log: SandboxWebhooks = read.ok ? read.value : { endpoints: [], messages: [] };
  const problem = read.ok ? undefined : read.problem;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>
      {problem ? (
        <Alert tone="error" title={problem.title} role="alert">
          <p>{problem.message}</p>
        </Alert>
      ) : (
        <>
          <section aria-labelledby="endpoints-heading" className="space-y-2">
            <h2 id="endpoints-heading" className="text-lg font-semibold text-slate-900">
              {t('endpoints')}
            </h2>
            {log.endpoints.length === 0 ? (
              <p className="text-sm text-slate-700">
                {t.rich('noEndpoints', { code: (command) => <code className="rounded bg-slate-100 px-1">{command}</code> })}
              </p>
            ) : (
              <ul className="divide-y divide-slate-100 rounded-lg bg-white text-sm shadow-sm ring-1 ring-slate-200">
                {log.endpoints.map((endpoint) => (
                  <li key={endpoint.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2.5">
                    <span className="font-mono break-all text-slate-900">{endpoint.url}</span>
                    <span className="text-slate-600">{t.rich('added', { time: () => <LocalTime iso={endpoint.createdAt} /> })}</span>
                    {endpoint.disabledAt ? (
                      <span className="text-slate-600">{t.rich('disabled', { time: () => <LocalTime iso={endpoint.disabledAt!} /> })}</span>
                    ) : (
                      <span className="text-emerald-800">{t('active')}</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>

          {log.messages.length === 0 ? (
            <p className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-slate-700">{t('empty')}</p>
          ) : (
            <DataTable caption={t('caption')} columns={[t('created'), t('event'), t('verification'), t('deliveries')]}>
              {log.messages.map((message) => (
                <tr key={message.id} className="align-top">
                  <td data-label={t('created')} className="px-4 py-2.5 whitespace-nowrap text-slate-700">
                    <LocalTime iso={message.createdAt} />
                  </td>
                  <td data-label={t('event')} className="px-4 py-2.5 whitespace-nowrap">
                    <span className="font-medium text-slate-900">{eventLabel(message.type, t)}</span>
                    <span className="block font-mono text-xs text-slate-500">{message.id}</span>
                  </td>
                  <td data-label={t('verification')} className="px-4 py-2.5">
                    {message.verificationId ? (
                      <Link
                        href={`/verifications/${encodeURIComponent(message.verificationId)}`}
                        className={`${idTextClasses} text-indigo-700 underline underline-offset-2 hover:no-underline`}
                      >
                        {message.verificationId}
                        <LinkPendingHint className="ml-1.5 align-[-2px]" />
                      </Link>
                    ) : (
                      <span className="text-slate-500">—</span>
                    )}
                  </td>
                  <td data-label={t('deliveries')} className="px-4 py-2.5">
                    {message.deliveries.length === 0 ? (
                      <span className="text-slate-600">{t('noEndpointActive')}</span>
                    ) : (
                      <ul className="space-y-2">
                        {message.deliveries.map((delivery) => (
                          <DeliveryItem key={delivery.endpointId} delivery={delivery} />
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </>
      )}
    </div>
  );
}

function DeliveryItem({ delivery }: { delivery: Delivery }) {
  const t = useTranslations('sandbox.webhooks');
  const last = delivery.attempts.at(-1);
  return (
    <li className="space-y-1">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <DeliveryStatus delivery={delivery} />
        <span className="font-mono text-xs break-all text-slate-700">{delivery.url}</span>
      </div>
      <p className="text-xs text-slate-600">
        {t('attemptCount', { count: delivery.attemptCount })}
        {last ? t('last', { result: attemptResult(last, t) }) : null}
        {delivery.nextAttemptAt && delivery.attemptCount > 0
          ? t.rich('next', { time: () => <LocalTime iso={delivery.nextAttemptAt!} /> })
          : null}
      </p>
      {delivery.attempts.length > 0 ? (
        <details className="text-xs text-slate-600">
          <summary className="cursor-pointer text-slate-700 hover:text-slate-900">{t('attempts')}</summary>
          <ol className="mt-1 space-y-0.5 pl-4">
            {delivery.attempts.map((attempt, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: attempts are append-only; the number is part of what is shown.
              <li key={`${attempt.attemptedAt}-${index}`}>
                {t.rich('attempt', {
                  number: index + 1,
                  time: () => <LocalTime iso={attempt.attemptedAt} />,
                  result: attemptResult(attempt, t),
                  duration: attempt.durationMs,
                })}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </li>
  );
}
