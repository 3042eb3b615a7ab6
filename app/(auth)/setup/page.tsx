// First-run setup: only while no staff account exists, and only with the one-time link the
// server made at its start (in <DATA_DIR>/setup-link.txt, and on its terminal). Once the first
// administrator exists, every setup link says it was used and points to sign-in.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { SetupForm } from '@/components/auth/setup-form';
import { Alert } from '@/components/ui/alert';
import { isSetupOpen, isSetupTokenValid } from '@/lib/auth/setup';

export const metadata: Metadata = { title: 'Set up' };

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export default async function SetupPage({ searchParams }: Props) {
  // Setup is done: every setup link is used up. Still a 404 (nothing to do here), but with a page
  // that says so and leads to sign-in (./not-found.tsx) rather than a bare "Page not found".
  if (!(await isSetupOpen())) notFound();
  const { token } = await searchParams;
  const value = typeof token === 'string' ? token : '';
  if (!(await isSetupTokenValid(value))) {
    return (
      <div className="space-y-4">
        <h1 className="text-xl font-semibold text-slate-900">Setup link needed</h1>
        <Alert tone="warning" title="This setup link is missing or not valid." role="alert">
          <p>
            Open the link in the file setup-link.txt in the server&apos;s data directory (a terminal running the server shows it too). It
            contains a one-time token. Every start of the server makes a new link and voids the one before, until the first administrator
            exists.
          </p>
        </Alert>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Create the first administrator</h1>
        <p className="mt-1 text-sm text-slate-600">
          This account manages the other staff accounts. This page works once: after this, everyone signs in.
        </p>
      </div>
      <SetupForm token={value} />
    </div>
  );
}
