// The signed-in person's own account: who they are here, their password, the browsers signed in
// to it, their second factor and their language. Every staff member has one; nobody sees anyone
// else's here.

import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import { ChangePasswordForm } from '@/components/account/change-password-form';
import { EndOtherSessionsForm } from '@/components/account/end-other-sessions-form';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { LanguageSwitcher } from '@/components/i18n/language-switcher';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { DataTable } from '@/components/ui/data-table';
import { KeyRound, MessageSquare, MonitorSmartphone, ShieldCheck } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { TimeText } from '@/components/ui/time-text';
import { listOwnSessions } from '@/lib/account/own-sessions';
import { requireStaff } from '@/lib/auth/session';
import { isLanguage, LANGUAGE_NAMES } from '@/lib/i18n/languages';
import { displayTimeZone } from '@/lib/time/display-zone';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('account.page');
  return { title: t('title') };
}

function SectionTitle({ id, icon: Icon, children }: { id: string; icon: typeof KeyRound; children: string }) {
  return (
    <h2 id={id} className="flex items-center gap-2 text-base font-semibold text-slate-900">
      <Icon aria-hidden="true" className="size-5 text-slate-500" />
      {children}
    </h2>
  );
}

export default async function AccountPage() {
  const me = await requireStaff('account:own', '/account');
  const [sessions, timeZone, t, tCommon, locale] = await Promise.all([
    listOwnSessions(me.id, me.sessionId),
    displayTimeZone(),
    getTranslations('account.page'),
    getTranslations('common'),
    getLocale(),
  ]);
  const language = isLanguage(locale) ? locale : undefined;
  const others = sessions.filter((session) => !session.current).length;
  return (
    <div className="space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
        <dl className="mt-4 grid gap-x-8 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-600">{t('name')}</dt>
          <dd className="text-slate-900" translate="no">
            {me.name}
          </dd>
          <dt className="font-medium text-slate-600">{t('email')}</dt>
          <dd className="text-slate-900" translate="no">
            {me.email}
          </dd>
          <dt className="font-medium text-slate-600">{t('role')}</dt>
          <dd className="text-slate-900">
            {tCommon(`roles.${me.role}`)}{' '}
            <span className="text-slate-600">
              — {tCommon(`roleDescriptions.${me.role}`)} {t('roleChangedBy')}
            </span>
          </dd>
        </dl>
      </div>

      <Card aria-labelledby="change-password">
        <CardHeader>
          <SectionTitle id="change-password" icon={KeyRound}>
            {t('password.title')}
          </SectionTitle>
        </CardHeader>
        <CardBody>
          <ClientMessagesFor namespaces={['account.passwordForm']}>
            <ChangePasswordForm />
          </ClientMessagesFor>
        </CardBody>
      </Card>

      <Card aria-labelledby="active-sessions">
        <CardHeader>
          <SectionTitle id="active-sessions" icon={MonitorSmartphone}>
            {t('sessions.title')}
          </SectionTitle>
          <p className="mt-1 text-sm text-slate-600">{t('sessions.intro')}</p>
        </CardHeader>
        <CardBody className="space-y-4">
          <DataTable
            caption={t('sessions.caption')}
            columns={[t('sessions.browser'), t('sessions.signedIn'), t('sessions.lastActive')]}
            bodyTestId="active-sessions"
          >
            {sessions.map((session) => (
              <tr key={session.id}>
                <td className="px-4 py-3">
                  <span className="font-medium text-slate-900">{session.device}</span>
                  {session.current ? (
                    <span className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200 ring-inset">
                      {t('sessions.thisDevice')}
                    </span>
                  ) : null}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  <TimeText iso={session.signedInAt.toISOString()} timeZone={timeZone} language={language} />
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {session.current ? (
                    t('sessions.now')
                  ) : (
                    <TimeText iso={session.lastActiveAt.toISOString()} timeZone={timeZone} language={language} />
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
          <ClientMessagesFor namespaces={['account.sessionsForm']}>
            <EndOtherSessionsForm others={others} />
          </ClientMessagesFor>
        </CardBody>
      </Card>

      <Card aria-labelledby="two-factor">
        <CardHeader>
          <SectionTitle id="two-factor" icon={ShieldCheck}>
            {t('twoFactor.title')}
          </SectionTitle>
        </CardHeader>
        <CardBody className="text-sm text-slate-700">
          <p>
            {t('twoFactor.intro')}{' '}
            <Link href="/account/two-factor" className="font-medium text-indigo-700 underline underline-offset-2 hover:no-underline">
              {t('twoFactor.link')}
            </Link>
          </p>
        </CardBody>
      </Card>

      <Card aria-labelledby="language">
        <CardHeader>
          <SectionTitle id="language" icon={MessageSquare}>
            {t('language.title')}
          </SectionTitle>
        </CardHeader>
        <CardBody className="space-y-3 text-sm text-slate-700">
          <p>{t('language.current', { language: LANGUAGE_NAMES[language ?? 'en'] })}</p>
          <LanguageSwitcher className="w-fit" />
          <p className="text-slate-600">{t('language.explanation')}</p>
        </CardBody>
      </Card>
    </div>
  );
}
