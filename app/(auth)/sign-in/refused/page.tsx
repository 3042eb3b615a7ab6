// Where a single sign-on that did not let someone in ends (lib/auth/single-sign-on-callback.ts
// sends the browser here with the reason). It says why in words a colleague can act on, and
// no more than that: it names no account and no address.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import type { SingleSignOnRefusal } from '@/lib/auth/single-sign-on-callback';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('auth.refused');
  return { title: t('title') };
}

const REFUSALS: readonly SingleSignOnRefusal[] = ['unknown', 'unverified', 'disabled', 'other_identity', 'failed'];
const isRefusal = (reason: string | undefined): reason is SingleSignOnRefusal => REFUSALS.includes(reason as SingleSignOnRefusal);

type Props = { searchParams: Promise<{ reason?: string }> };

export default async function SingleSignOnRefusedPage({ searchParams }: Props) {
  const { reason } = await searchParams;
  const refusal: SingleSignOnRefusal = isRefusal(reason) ? reason : 'failed';
  const [t, tAuth] = await Promise.all([getTranslations('auth.refused'), getTranslations('auth')]);
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold text-slate-900">{t('title')}</h1>
      <Alert tone="error" title={t(`reasons.${refusal}.title`)} role="alert">
        <p>{t(`reasons.${refusal}.body`)}</p>
      </Alert>
      <ButtonLink href="/sign-in" variant="secondary" className="w-full">
        {tAuth('backToSignIn')}
      </ButtonLink>
    </div>
  );
}
