// Target of the lookup form when JavaScript is off: /verifications?id=… goes to the detail page.
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { LookupForm } from '@/components/verifications/lookup-form';
import { requireStaff } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Look up a verification' };

export default async function LookupPage({ searchParams }: { searchParams: Promise<{ id?: string | string[] }> }) {
  await requireStaff('verification:read', '/verifications');
  const { id } = await searchParams;
  const value = (Array.isArray(id) ? id[0] : id)?.trim() ?? '';
  if (value !== '') redirect(`/verifications/${encodeURIComponent(value)}`);
  return (
    <div className="max-w-xl space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Look up a verification</h1>
      <LookupForm initialError={id === undefined ? undefined : 'Enter the verification id you want to look up.'} />
    </div>
  );
}
