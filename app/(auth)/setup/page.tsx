// First-run setup: only while no staff account exists, and only with the token the server
// printed to its console. Afterwards the page is gone (404).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { SetupForm } from '@/components/auth/setup-form';
import { Alert } from '@/components/ui/alert';
import { isSetupOpen, isSetupTokenValid } from '@/lib/auth/setup';

export const metadata: Metadata = { title: 'Set up' };

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export default async function SetupPage({ searchParams }: Props) {
  if (!(await isSetupOpen())) notFound();
  const { token } = await searchParams;
  const value = typeof token === 'string' ? token : '';
  if (!(await isSetupTokenValid(value))) {
    return (
      <div className="space-y-4">
        <h1 className="text-xl font-semibold text-slate-900">Setup link needed</h1>
        <Alert tone="warning" title="This setup link is missing or not valid." role="alert">
          <p>
            Open the link the server printed to its console when it started (it contains a one-time token). A new link is printed at every
            start until the first administrator exists.
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
