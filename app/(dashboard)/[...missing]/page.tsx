// Any address no route claims. Answered from inside the dashboard group, so that the not-found
// page a signed-in staff member sees keeps the header (app/(dashboard)/not-found.tsx); the
// site-wide app/not-found.tsx is rendered outside every group's layout. Every other route is
// more specific than this catch-all, so it takes nothing from them.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('shell.notFound');
  return { title: t('title') };
}

export default function MissingPage() {
  notFound();
}
