// Target of the lookup form when JavaScript is off, and of a person's link with it on:
// /verifications?id=… (an id, a detail page's address or a person's link) goes to the detail page,
// or shows the form again with what was typed and the problem.
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { LookupForm } from '@/components/verifications/lookup-form';
import { requireStaff } from '@/lib/auth/session';
import { resolveLookup } from '@/lib/verifications/lookup.server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('detail.lookup');
  return { title: t('pageTitle') };
}

export default async function LookupPage({ searchParams }: { searchParams: Promise<{ id?: string | string[] }> }) {
  await requireStaff('verification:read', '/verifications');
  const { id } = await searchParams;
  const value = Array.isArray(id) ? id[0] : id;
  const lookup = value === undefined ? undefined : await resolveLookup(value);
  if (lookup && 'id' in lookup) redirect(`/verifications/${encodeURIComponent(lookup.id)}`);
  const t = await getTranslations('detail.lookup');
  return (
    <div className="max-w-xl space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">{t('pageTitle')}</h1>
      <LookupForm initialValue={value} initialProblem={lookup?.problem} />
    </div>
  );
}
