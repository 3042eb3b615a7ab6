// The dashboard's shell: header with navigation, the live-status connection (signed-in staff
// only), and a notice when the embedded sandbox is serving instead of the real service.

import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { LanguageSwitcher } from '@/components/i18n/language-switcher';
import { LiveUpdates } from '@/components/live/live-updates';
import { DatabaseUnavailable } from '@/components/platform/database-unavailable';
import { buttonClasses } from '@/components/ui/button';
import { CircleUser, FlaskConical, LogOut, Plus, ShieldCheck } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';
import { can } from '@/lib/auth/roles';
import { getCurrentStaff } from '@/lib/auth/session';
import { currentEventId } from '@/lib/live';
import { isDatabaseUnavailable } from '@/lib/platform/database-errors';
import { isSandboxEnabled } from '@/lib/platform/sandbox-switch';

// The shell's width: wide screens get their width for the tables (ids on one line, purposes in
// two), up to 2xl, beyond which lines would grow too long to read.
const shellWidth = 'mx-auto w-full max-w-(--breakpoint-2xl)';

const navLinkClasses = 'rounded-md px-3 py-2 text-slate-700 hover:bg-slate-100 hover:text-slate-900';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // The page itself sends a visitor without a session to sign-in (it knows where to come back
  // to); the layout only dresses signed-in pages. A layout's check would not guard the page.
  let staff: Awaited<ReturnType<typeof getCurrentStaff>>;
  try {
    staff = await getCurrentStaff();
  } catch (error) {
    // Every signed-in page starts with this lookup: when the database is down, say so here, in
    // words, rather than letting each page fail on its own.
    if (!isDatabaseUnavailable(error)) throw error;
    return (
      <main id="main" className={`${shellWidth} flex-1 px-4 py-8 sm:px-6 lg:px-8`}>
        <ClientMessagesFor namespaces={['shell.databaseUnavailable']}>
          <DatabaseUnavailable />
        </ClientMessagesFor>
      </main>
    );
  }
  // The group's error boundary (./error.tsx) renders inside this layout, below this provider: it
  // may have to say that the database is unavailable, in the reader's language.
  if (!staff) return <ClientMessagesFor namespaces={['shell.databaseUnavailable']}>{children}</ClientMessagesFor>;
  const sandbox = isSandboxEnabled();
  const [lastEventId, t, tCommon] = await Promise.all([currentEventId(), getTranslations('shell'), getTranslations('common')]);
  // Administrators' pages: not daily work, so out of the main menu.
  const administration = [
    can(staff.role, 'staff:manage') ? { href: '/staff', label: t('header.staff') } : null,
    sandbox && can(staff.role, 'audit:read') ? { href: '/webhooks', label: t('header.webhooks') } : null,
  ].filter((entry) => entry !== null);
  return (
    <div className="flex min-h-dvh flex-col">
      {/* On paper the page is its content: no skip link, menu, buttons or live status. */}
      <a
        href="#main"
        className="print:hidden sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('header.skipToContent')}
      </a>
      <header className="border-b border-slate-200 bg-white print:hidden">
        {/* One row from 1536 px. Below, the navigation has a row of its own (an administrator's
            menus and the actions beside them need about 1,500 px in one row: at 1440 px the
            administration links were scrolled out of sight), which scrolls sideways if it must,
            and on phones the buttons keep only their icons (their names stay for screen readers):
            nothing pushes the page wider than the screen. */}
        <div className={`${shellWidth} flex flex-wrap items-center gap-x-3 px-4 sm:px-6 lg:gap-x-6 lg:px-8 2xl:h-16 2xl:flex-nowrap`}>
          <Link href="/" className="flex h-14 items-center gap-2 font-semibold whitespace-nowrap text-slate-900 2xl:h-auto">
            <ShieldCheck aria-hidden="true" className="size-6 text-indigo-600" />
            Verification Desk
          </Link>
          {/* The daily work in the main menu; what only administrators manage (staff accounts,
              the sandbox's webhook deliveries) in an administration group of its own beside it. */}
          <div className="order-last -mx-1 flex w-full items-center gap-1 overflow-x-auto pb-2 text-sm whitespace-nowrap 2xl:order-none 2xl:mx-0 2xl:w-auto 2xl:flex-1 2xl:pb-0">
            <nav aria-label={t('header.mainMenu')} className="flex items-center gap-1">
              <Link href="/queue" className={navLinkClasses}>
                {t('header.queue')}
              </Link>
              <Link href="/" className={navLinkClasses}>
                {t('header.requests')}
              </Link>
              <Link href="/overview" className={navLinkClasses}>
                {t('header.overview')}
              </Link>
              {can(staff.role, 'audit:read') ? (
                <Link href="/audit" className={navLinkClasses}>
                  {t('header.auditTrail')}
                </Link>
              ) : null}
            </nav>
            {administration.length > 0 ? (
              <nav aria-labelledby="administration-menu" className="ml-2 flex items-center gap-1 border-l border-slate-200 pl-3">
                <span id="administration-menu" className="px-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  {t('header.administration')}
                </span>
                {administration.map((entry) => (
                  <Link key={entry.href} href={entry.href} className={navLinkClasses}>
                    {entry.label}
                  </Link>
                ))}
              </nav>
            ) : null}
          </div>
          <div className="ml-auto flex items-center gap-3 lg:gap-6">
            {can(staff.role, 'verification:create') ? (
              <Link href="/verifications/new" className={buttonClasses('primary', 'md')}>
                <Plus aria-hidden="true" className="size-4" />
                <span className="sr-only sm:not-sr-only">{t('header.newRequest')}</span>
              </Link>
            ) : null}
            {staff.mustEnrolTwoFactor ? null : (
              <ClientMessagesFor namespaces={['shell.live']}>
                <LiveUpdates initialEventId={lastEventId} />
              </ClientMessagesFor>
            )}
            <LanguageSwitcher />
            <div className="flex items-center gap-2 border-l border-slate-200 pl-3 text-sm sm:pl-4">
              {/* The person's name opens their account page (password, sessions, second factor). */}
              <Link href="/account" className="flex items-center gap-2 rounded-md px-2 py-1 text-right leading-tight hover:bg-slate-100">
                <CircleUser aria-hidden="true" className="size-5 text-slate-500 sm:hidden" />
                <span className="sr-only">{t('header.yourAccount')}</span>
                <span className="hidden sm:block">
                  <span className="block font-medium text-slate-900" data-testid="signed-in-as" translate="no">
                    {staff.name}
                  </span>
                  <span className="block text-xs text-slate-600">{tCommon(`roles.${staff.role}`)}</span>
                </span>
              </Link>
              <form action="/sign-out" method="post">
                <button type="submit" className={buttonClasses('ghost', 'sm')}>
                  <LogOut aria-hidden="true" className="size-4" />
                  <span className="sr-only sm:not-sr-only">{t('header.signOut')}</span>
                </button>
              </form>
            </div>
          </div>
        </div>
      </header>
      {sandbox ? (
        <div className="border-b border-amber-200 bg-amber-50 text-sm text-amber-950">
          <div className={`${shellWidth} flex flex-wrap items-center gap-x-2 gap-y-1 px-4 py-2 sm:px-6 lg:px-8`}>
            {/* The icon inside the sentence, so that on a phone it stays beside the words. */}
            <span>
              <FlaskConical aria-hidden="true" className="mr-2 inline size-4 align-[-3px] text-amber-700" />
              <strong className="font-semibold">{t('sandbox.title')}</strong> {t('sandbox.explanation')}
            </span>
            {can(staff.role, 'link:copy') ? (
              <Link href="/outbox" className="font-medium underline underline-offset-2 hover:no-underline">
                {t('sandbox.outboxLink')}
              </Link>
            ) : null}
          </div>
        </div>
      ) : null}
      <main id="main" className={`${shellWidth} flex-1 px-4 py-8 sm:px-6 lg:px-8 print:max-w-none print:p-0`}>
        {/* The copy button's words: the register, a request's page and the staff page all have one. */}
        <ClientMessagesFor namespaces={['shell.databaseUnavailable', 'create.copy']}>{children}</ClientMessagesFor>
      </main>
    </div>
  );
}
