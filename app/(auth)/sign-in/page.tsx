import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { SignInMethods } from '@/components/auth/sign-in-methods';
import { Alert } from '@/components/ui/alert';
import { safeReturnPath } from '@/lib/auth/request-info';
import { getCurrentStaff } from '@/lib/auth/session';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('auth.signIn');
  return { title: t('title') };
}

type Props = { searchParams: Promise<{ next?: string; signedOut?: string }> };

export default async function SignInPage({ searchParams }: Props) {
  const { next, signedOut } = await searchParams;
  const returnTo = safeReturnPath(next);
  if (await getCurrentStaff()) redirect(returnTo);
  const t = await getTranslations('auth.signIn');
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>
      {signedOut ? <Alert tone="info" title={t('signedOut')} role="status" /> : null}
      <SignInMethods next={returnTo} />
    </div>
  );
}
