// First-run setup: only while no staff account exists, and only with the one-time link the
// server made at its start (in <DATA_DIR>/setup-link.txt, and on its terminal). Once the first
// administrator exists, every setup link says it was used and points to sign-in.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { SetupForm } from '@/components/auth/setup-form';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { Alert } from '@/components/ui/alert';
import { isSetupOpen, isSetupTokenValid } from '@/lib/auth/setup';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('auth.setup');
  return { title: t('metaTitle') };
}

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export default async function SetupPage({ searchParams }: Props) {
  // Setup is done: every setup link is used up. Still a 404 (nothing to do here), but with a page
  // that says so and leads to sign-in (./not-found.tsx) rather than a bare "Page not found".
  if (!(await isSetupOpen())) notFound();
  const { token } = await searchParams;
  const value = typeof token === 'string' ? token : '';
  const t = await getTranslations('auth.setup');
  if (!(await isSetupTokenValid(value))) {
    return (
      <div className="space-y-4">
        <h1 className="text-xl font-semibold text-slate-900">{t('linkNeeded.heading')}</h1>
        <Alert tone="warning" title={t('linkNeeded.title')} role="alert">
          <p>{t('linkNeeded.body')}</p>
        </Alert>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>
      <ClientMessagesFor namespaces={['auth.setupForm']}>
        <SetupForm token={value} />
      </ClientMessagesFor>
    </div>
  );
}
