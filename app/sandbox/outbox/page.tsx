// SANDBOX: the messages the sandbox "sent" (it has no real e-mail or SMS delivery yet), so a
// tester can open the person's link from here.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { isSandboxEnabled } from '@/lib/sandbox/config';
import { getSandboxDb } from '@/lib/sandbox/db';
import { listOutbox } from '@/lib/sandbox/outbox';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: 'Sandbox outbox',
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

export default async function SandboxOutboxPage() {
  if (!isSandboxEnabled()) notFound();
  const messages = await listOutbox(await getSandboxDb(), 100);

  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-2xl font-semibold text-gray-900">Sandbox outbox</h1>
      <p className="mt-2 text-sm text-gray-600">
        The latest {messages.length === 100 ? '100 ' : ''}e-mails and SMS the sandbox would have sent, newest first.
        Nothing here was actually delivered.
      </p>
      {messages.length === 0 ? (
        <p className="mt-8 text-gray-700">No messages yet. Create a verification request with e-mail or SMS notification.</p>
      ) : (
        <div className="mt-6 overflow-x-auto">
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <caption className="sr-only">Messages sent by the sandbox</caption>
            <thead className="bg-gray-50 text-gray-600">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">Time (UTC)</th>
                <th scope="col" className="px-3 py-2 font-medium">Channel</th>
                <th scope="col" className="px-3 py-2 font-medium">Recipient</th>
                <th scope="col" className="px-3 py-2 font-medium">Language</th>
                <th scope="col" className="px-3 py-2 font-medium">Link</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 bg-white">
              {messages.map((message) => (
                <tr key={message.id}>
                  <td className="whitespace-nowrap px-3 py-2 font-mono text-gray-700">
                    <time dateTime={message.createdAt.toISOString()}>
                      {message.createdAt.toISOString().replace('T', ' ').slice(0, 19)}
                    </time>
                  </td>
                  <td className="px-3 py-2">{message.channel === 'email' ? 'E-mail' : 'SMS'}</td>
                  <td className="break-all px-3 py-2">{message.recipient}</td>
                  <td className="px-3 py-2">{message.language}</td>
                  <td className="px-3 py-2">
                    <a href={message.link} rel="noreferrer" className="break-all text-blue-700 underline">
                      Open the person&apos;s page
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
