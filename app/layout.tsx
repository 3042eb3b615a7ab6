import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { TimeZoneProvider } from '@/components/ui/time-zone';
import { displayZone } from '@/lib/time/display-zone';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Verification Desk', template: '%s · Verification Desk' },
  description: 'Create identity verification requests and follow them up.',
};

export const viewport: Viewport = { themeColor: '#4f46e5' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, so Next puts that request's CSP nonce (proxy.ts) on its
  // scripts. Without this the 404 page would be prerendered at build time: its scripts would carry
  // no nonce, and the policy would block them all.
  await connection();
  const { timeZone, fixed } = await displayZone();
  return (
    <html lang="en">
      <body className="min-h-dvh">
        <TimeZoneProvider timeZone={timeZone} fixed={fixed}>
          {children}
        </TimeZoneProvider>
      </body>
    </html>
  );
}
