// SANDBOX: the page a person opens from the link in their e-mail or SMS (or the link the
// caller shared). For now it says who asks, for whom and why; outcome buttons come later.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { isSandboxEnabled } from '@/lib/sandbox/config';
import { getPersonPageState } from '@/lib/sandbox/person-page';
import { personPageText, type PersonPageText } from '@/lib/sandbox/person-page-text';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Identity verification (sandbox)',
  robots: { index: false, follow: false },
  // The token in this page's address is a secret: never send it to another site.
  referrer: 'no-referrer',
};

export default async function SandboxVerifyPage({ params }: { params: Promise<{ token: string }> }) {
  if (!isSandboxEnabled()) notFound();
  const { token } = await params;
  const state = await getPersonPageState(token);

  if (state.kind === 'invalid') {
    return (
      <Shell language="en" text={personPageText('en')}>
        <h1 className="text-2xl font-semibold text-gray-900">This link is not valid</h1>
        <p className="mt-3 text-gray-700">
          Check that you copied the whole link, or ask the organisation that sent it for a new one.
        </p>
      </Shell>
    );
  }

  const text = personPageText(state.language);
  if (state.kind === 'expired' || state.kind === 'closed') {
    return (
      <Shell language={state.language} text={text}>
        <h1 className="text-2xl font-semibold text-gray-900">
          {state.kind === 'expired' ? text.expiredHeading : text.closedHeading}
        </h1>
        <p className="mt-3 text-gray-700">{state.kind === 'expired' ? text.expiredBody : text.closedBody}</p>
      </Shell>
    );
  }

  const validUntil = new Intl.DateTimeFormat(state.language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(state.accessExpiresAt);

  return (
    <Shell language={state.language} text={text}>
      <h1 className="text-2xl font-semibold text-gray-900">{text.heading}</h1>
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
        {text.validUntil} {validUntil} UTC.
      </p>
      <p className="mt-6 rounded-md border border-dashed border-gray-300 p-4 text-sm text-gray-600">
        {text.placeholder}
      </p>
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
