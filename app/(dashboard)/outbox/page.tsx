// Sandbox mode only: the e-mails and SMS the embedded sandbox would have sent for this
// company, read from the sandbox over HTTP like everything else. Shows working links to the
// person's page, so it needs the role that may copy links. Each message shows what it says, in
// the person's language (as the sandbox composed and kept it), so staff can read what the person
// received; the page's own words are the reader's.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { Alert } from '@/components/ui/alert';
import { DataTable } from '@/components/ui/data-table';
import { LocalTime } from '@/components/ui/local-time';
import { requireStaff } from '@/lib/auth/session';
import { isLanguage, LANGUAGE_NAMES } from '@/lib/i18n/languages';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';
import { getSandboxOutbox } from '@/lib/verification-service';
import { tryServiceRead } from '@/lib/verification-service/messages';

// No other site is told this page's address. (Not 'no-referrer': under it the sign-out form says
// "Origin: null", and sign-out refuses it.)
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('sandbox.outbox');
  return { title: t('title'), referrer: 'same-origin' };
}

export default async function OutboxPage() {
  await requireStaff('link:copy', '/outbox');
  if (!isSandboxEnabled()) notFound();

  const [read, t] = await Promise.all([tryServiceRead(getSandboxOutbox), getTranslations('sandbox.outbox')]);
  const messages = read.ok ? read.value : [];
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
      ) : messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-slate-700">{t('empty')}</p>
      ) : (
        <DataTable caption={t('caption')} columns={[t('sent'), t('channel'), t('recipient'), t('language'), t('message'), t('link')]}>
          {messages.map((message) => {
            // The person's language: each language by its own name, as the switcher shows it.
            const language = isLanguage(message.language) ? message.language : undefined;
            const languageName = language ? LANGUAGE_NAMES[language] : message.language;
            return (
              <tr key={`${message.verificationId}-${message.channel}-${message.createdAt}`} className="align-top">
                <td data-label={t('sent')} className="px-4 py-2.5 whitespace-nowrap text-slate-700">
                  <LocalTime iso={message.createdAt} />
                </td>
                <td data-label={t('channel')} className="px-4 py-2.5">
                  {t(`channels.${message.channel}`)}
                </td>
                <td data-label={t('recipient')} className="px-4 py-2.5 break-all" translate="no">
                  {message.recipient}
                </td>
                <td data-label={t('language')} className="px-4 py-2.5">
                  {t('languageCell', { language: languageName, code: message.language })}
                </td>
                <td data-label={t('message')} className="max-w-md min-w-0 px-4 py-2.5">
                  {message.body !== null ? (
                    <details>
                      <summary className="cursor-pointer text-slate-900">
                        {message.subject !== null ? (
                          <span lang={language} translate="no">
                            {message.subject}
                          </span>
                        ) : (
                          t('smsSummary')
                        )}
                      </summary>
                      <p className="mt-2 text-xs text-slate-600">{t('received', { language: languageName })}</p>
                      <p
                        lang={language}
                        translate="no"
                        className="mt-1 rounded bg-slate-50 p-2 text-sm wrap-anywhere whitespace-pre-wrap text-slate-800"
                      >
                        {message.body}
                      </p>
                    </details>
                  ) : (
                    <span className="text-slate-500">{t('notKept')}</span>
                  )}
                </td>
                <td data-label={t('link')} className="px-4 py-2.5">
                  <a href={message.link} rel="noreferrer" className="text-indigo-700 underline underline-offset-2 hover:no-underline">
                    {t('open')}
                  </a>
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </div>
  );
}
