// Sandbox mode only: the e-mails and SMS the embedded sandbox would have sent for this
// company, read from the sandbox over HTTP like everything else. Shows working links to the
// person's page, so it needs the role that may copy links.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Alert } from '@/components/ui/alert';
import { DataTable } from '@/components/ui/data-table';
import { LocalTime } from '@/components/ui/local-time';
import { requireStaff } from '@/lib/auth/session';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';
import { getSandboxOutbox } from '@/lib/verification-service';
import { tryServiceRead } from '@/lib/verification-service/messages';
import { languageLabel } from '@/lib/verifications/labels';

// No other site is told this page's address. (Not 'no-referrer': under it the sign-out form says
// "Origin: null", and sign-out refuses it.)
export const metadata: Metadata = { title: 'Sandbox outbox', referrer: 'same-origin' };

export default async function OutboxPage() {
  await requireStaff('link:copy', '/outbox');
  if (!isSandboxEnabled()) notFound();

  const read = await tryServiceRead(getSandboxOutbox);
  const messages = read.ok ? read.value : [];
  const problem = read.ok ? undefined : read.problem;

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Sandbox outbox</h1>
        <p className="mt-1 text-sm text-slate-600">
          The latest e-mails and SMS the sandbox would have sent for your requests, newest first. Nothing was delivered; open a link to act
          as the person.
        </p>
      </div>
      {problem ? (
        <Alert tone="error" title={problem.title} role="alert">
          <p>{problem.message}</p>
        </Alert>
      ) : messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-slate-700">
          No messages yet. Create a request with e-mail or SMS notification.
        </p>
      ) : (
        <DataTable caption="Messages the sandbox would have sent" columns={['Sent', 'Channel', 'Recipient', 'Language', 'Link']}>
          {messages.map((message) => (
            <tr key={`${message.verificationId}-${message.channel}-${message.createdAt}`}>
              <td data-label="Sent" className="px-4 py-2.5 whitespace-nowrap text-slate-700">
                <LocalTime iso={message.createdAt} />
              </td>
              <td data-label="Channel" className="px-4 py-2.5">
                {message.channel === 'email' ? 'E-mail' : 'SMS'}
              </td>
              <td data-label="Recipient" className="px-4 py-2.5 break-all">
                {message.recipient}
              </td>
              <td data-label="Language" className="px-4 py-2.5">
                {languageLabel(message.language)} ({message.language})
              </td>
              <td data-label="Link" className="px-4 py-2.5">
                <a href={message.link} rel="noreferrer" className="text-indigo-700 underline underline-offset-2 hover:no-underline">
                  Open the person&apos;s page
                </a>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
