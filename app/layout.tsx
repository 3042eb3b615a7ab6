import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import { getLocale, getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { TimeZoneProvider } from '@/components/ui/time-zone';
import { DEFAULT_LANGUAGE, isLanguage } from '@/lib/i18n/languages';
import { displayZone } from '@/lib/time/display-zone';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('shell.metadata');
  return {
    title: { default: 'Verification Desk', template: '%s · Verification Desk' },
    description: t('description'),
  };
}

export const viewport: Viewport = { themeColor: '#4f46e5' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, so Next puts that request's CSP nonce (proxy.ts) on its
  // scripts. Without this the 404 page would be prerendered at build time: its scripts would carry
  // no nonce, and the policy would block them all.
  await connection();
  const [{ timeZone, fixed }, locale] = await Promise.all([displayZone(), getLocale()]);
  const language = isLanguage(locale) ? locale : DEFAULT_LANGUAGE;
  return (
    <html lang={language}>
      <body className="min-h-dvh">
        {/* The words every page's client parts may need: the root error boundary (app/error.tsx,
            rendered inside this layout, so inside this provider) and a field's "(optional)"
            (components/ui/field.tsx, in every form). A few short messages, in every page's payload. */}
        <ClientMessagesFor namespaces={['shell.error', 'forms.field']}>
          <TimeZoneProvider timeZone={timeZone} fixed={fixed}>
            {children}
          </TimeZoneProvider>
        </ClientMessagesFor>
      </body>
    </html>
  );
}
