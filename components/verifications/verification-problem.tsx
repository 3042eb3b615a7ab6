// A full-page explanation of why a verification cannot be shown: each failure gets its own
// title, advice and way out (never a crash page, never internal details).

import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { buttonClasses } from '@/components/ui/button';
import { Ban, CloudOff, FileQuestion, Hourglass, ShieldAlert } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { LookupFormOnDemand } from './loaded-on-demand';

const icons = {
  invalid: FileQuestion,
  forbidden: ShieldAlert,
  not_found: FileQuestion,
  unauthorized: Ban,
  unavailable: CloudOff,
  timeout: Hourglass,
  protocol: CloudOff,
  unexpected: CloudOff,
} as const;

export type ProblemKind = keyof typeof icons;

export function VerificationProblem({
  kind,
  title,
  message,
  id,
  retryHref,
  children,
}: {
  kind: ProblemKind;
  title: string;
  message: string;
  id?: string;
  retryHref?: string;
  children?: ReactNode;
}) {
  const t = useTranslations('detail.problem');
  const Icon = icons[kind];
  return (
    <div className="mx-auto max-w-2xl space-y-6" data-problem={kind}>
      <div className="flex gap-4">
        <Icon aria-hidden="true" className="mt-1 size-8 shrink-0 text-slate-500" />
        <div className="min-w-0 space-y-2">
          <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
          <p className="text-slate-700">{message}</p>
          {id ? (
            <p className="text-sm text-slate-600">
              {t('idAskedFor')}{' '}
              <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all" translate="no">
                {id}
              </code>
            </p>
          ) : null}
          {children}
        </div>
      </div>
      {/* What to do next is for the screen; a printed problem page keeps what happened. */}
      <div className="flex flex-wrap gap-3 pl-12 print:hidden">
        {retryHref ? (
          <a href={retryHref} className={buttonClasses('primary')}>
            {t('tryAgain')}
          </a>
        ) : null}
        <Link href="/" className={buttonClasses('secondary')}>
          {t('backToRequests')}
        </Link>
      </div>
      <div className="max-w-xl pl-12 print:hidden">
        <ClientMessagesFor namespaces={['detail.lookup']}>
          <LookupFormOnDemand />
        </ClientMessagesFor>
      </div>
    </div>
  );
}
