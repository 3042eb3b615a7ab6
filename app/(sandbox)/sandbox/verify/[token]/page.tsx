// SANDBOX: the page a person opens from the link in their e-mail or SMS (or the link the
// caller shared). It says who asks, for whom and why, and, this being the sandbox, offers
// buttons that simulate each outcome. Plain HTML forms posting to server actions: no client
// JavaScript is needed, and each action redirects back here to show the result. The one client
// part writes the link's deadline in the person's own zone (local-deadline.tsx).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';
import { completeVerificationAction, failVerificationAction } from '@/lib/sandbox/person-page/actions';
import { getPersonPageState, type PersonPageQuery } from '@/lib/sandbox/person-page/person-page';
import { type PersonPageText, personPageText } from '@/lib/sandbox/person-page/person-page-text';
import { FAILURE_REASON_CODES, VERIFICATION_METHODS } from '@/lib/sandbox/records/lifecycle';
import { LocalDeadline } from './local-deadline';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Identity verification (sandbox)',
  robots: { index: false, follow: false },
  // The token in this page's address is a secret: never send it to another site. Not
  // 'no-referrer': under it the page's forms, posted without JavaScript, say "Origin: null", and
  // the server-action origin check rightly refuses them.
  referrer: 'same-origin',
};

const heading = 'text-2xl font-semibold text-gray-900';
const button =
  'w-full rounded-md px-4 py-2 text-left text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

export default async function SandboxVerifyPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams?: Promise<PersonPageQuery>;
}) {
  if (!isSandboxEnabled()) notFound();
  const { token } = await params;
  const query = (await searchParams) ?? {};
  const state = await getPersonPageState(token, { query });

  if (state.kind === 'invalid') {
    return (
      <Shell language="en" text={personPageText('en')}>
        <h1 className={heading}>This link is not valid</h1>
        <p className="mt-3 text-gray-700">Check that you copied the whole link, or ask the organisation that sent it for a new one.</p>
      </Shell>
    );
  }

  const text = personPageText(state.language);
  switch (state.kind) {
    case 'expired':
      return <Message language={state.language} text={text} title={text.expiredHeading} body={text.expiredBody} />;
    case 'closed':
      return <Message language={state.language} text={text} title={text.closedHeading} body={text.closedBody} />;
    case 'completed':
      return <Message language={state.language} text={text} title={text.completedHeading} body={text.completedBody} />;
    case 'failed':
      return (
        <Shell language={state.language} text={text}>
          <div role="status">
            <h1 className={heading}>{text.failedHeading}</h1>
            <p className="mt-3 text-gray-700">
              {text.failedReason}: {state.reason}
            </p>
            <p className="mt-3 text-gray-700">{text.failedBody}</p>
          </div>
        </Shell>
      );
    case 'pending':
      break;
  }

  const validUntil = new Intl.DateTimeFormat(state.language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(state.accessExpiresAt);
  const errorId = 'form-error';
  const nameHintId = 'identified-name-hint';
  const error = state.error ? text.errors[state.error] : undefined;

  return (
    <Shell language={state.language} text={text}>
      <h1 className={heading}>{text.heading}</h1>
      <dl className="mt-6 space-y-4">
        <div>
          <dt className="text-sm font-medium text-gray-500">{text.requestedBy}</dt>
          <dd className="mt-1 text-gray-900">{state.companyName}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-gray-500">{text.requestedFor}</dt>
          <dd className="mt-1 text-gray-900">{state.name}</dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-gray-500">{text.purpose}</dt>
          <dd className="mt-1 break-words text-gray-900">{state.purpose}</dd>
        </div>
      </dl>
      <p className="mt-6 text-sm text-gray-600">
        {text.validUntil} <LocalDeadline iso={state.accessExpiresAt.toISOString()} language={state.language} inUtc={`${validUntil} UTC`} />.
      </p>

      <section aria-labelledby="simulate-heading" className="mt-8 border-t border-gray-200 pt-6">
        <h2 id="simulate-heading" className="text-lg font-semibold text-gray-900">
          {text.simulateHeading}
        </h2>
        <p className="mt-2 text-sm text-gray-600">{text.simulateIntro}</p>
        {error ? (
          <p id={errorId} role="alert" className="mt-4 rounded-md bg-red-50 px-4 py-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}

        <form action={completeVerificationAction} className="mt-6 space-y-3">
          <h3 className="font-medium text-gray-900">{text.completeHeading}</h3>
          <input type="hidden" name="token" value={token} />
          <div>
            <label htmlFor="identified-name" className="block text-sm font-medium text-gray-700">
              {text.identifiedNameLabel}
            </label>
            <input
              id="identified-name"
              name="identifiedName"
              type="text"
              required
              maxLength={200}
              autoComplete="off"
              defaultValue={state.name}
              aria-describedby={state.error === 'name' ? `${nameHintId} ${errorId}` : nameHintId}
              aria-invalid={state.error === 'name' ? true : undefined}
              className="mt-1 block w-full rounded-md border border-gray-300 px-3 py-2 text-gray-900"
            />
            <p id={nameHintId} className="mt-1 text-xs text-gray-500">
              {text.identifiedNameHint}
            </p>
          </div>
          {VERIFICATION_METHODS.map((method) => (
            <button
              key={method}
              type="submit"
              name="method"
              value={method}
              className={`${button} bg-green-700 text-white hover:bg-green-800`}
            >
              {text.completeWith[method]}
            </button>
          ))}
        </form>

        <form action={failVerificationAction} className="mt-8 space-y-3">
          <h3 className="font-medium text-gray-900">{text.failHeading}</h3>
          <input type="hidden" name="token" value={token} />
          <fieldset aria-describedby={state.error === 'reason' ? errorId : undefined}>
            <legend className="text-sm font-medium text-gray-700">{text.reasonLegend}</legend>
            <div className="mt-2 space-y-2">
              {FAILURE_REASON_CODES.map((reason) => (
                <div key={reason} className="flex items-center gap-2">
                  <input id={`reason-${reason}`} type="radio" name="reason" value={reason} required />
                  <label htmlFor={`reason-${reason}`} className="text-sm text-gray-900">
                    {text.reasons[reason]}
                  </label>
                </div>
              ))}
            </div>
          </fieldset>
          <button type="submit" className={`${button} bg-red-700 text-white hover:bg-red-800`}>
            {text.failButton}
          </button>
        </form>
      </section>
    </Shell>
  );
}

function Message({ language, text, title, body }: { language: string; text: PersonPageText; title: string; body: string }) {
  return (
    <Shell language={language} text={text}>
      <div role="status">
        <h1 className={heading}>{title}</h1>
        <p className="mt-3 text-gray-700">{body}</p>
      </div>
    </Shell>
  );
}

function Shell({ language, text, children }: { language: string; text: PersonPageText; children: ReactNode }) {
  return (
    <main lang={language} className="mx-auto flex min-h-screen max-w-lg flex-col justify-center px-4 py-12">
      <p role="note" className="mb-6 rounded-md bg-amber-100 px-4 py-2 text-sm text-amber-900">
        {text.sandboxBanner}
      </p>
      <div className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">{children}</div>
    </main>
  );
}
