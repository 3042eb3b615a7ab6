// A break-glass sign-in link (`npm run users -- sign-in-link <email>`): says at once whether the
// link still works, and signs in only when its button is pressed (lib/auth/sign-in-link.ts).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SignInLinkForm } from '@/components/auth/sign-in-link-form';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { signInLinkState } from '@/lib/auth/sign-in-link';
import { getDb } from '@/lib/db';

// The link's token is in this page's address: no other site is told it. (Not 'no-referrer': under
// it the form, posted without JavaScript, says "Origin: null", which the origin check refuses.)
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('auth.signInLink');
  return { title: t('title'), referrer: 'same-origin' };
}

/** The command that issues a new link, shown as it is typed. */
const SIGN_IN_LINK_COMMAND = 'npm run users -- sign-in-link <email>';

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export default async function SignInLinkPage({ searchParams }: Props) {
  const { token } = await searchParams;
  const presented = typeof token === 'string' ? token : '';
  const [state, t, tAuth] = await Promise.all([
    signInLinkState(await getDb(), presented),
    getTranslations('auth.signInLink'),
    getTranslations('auth'),
  ]);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{t('title')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>
      {state === 'valid' ? (
        <ClientMessagesFor namespaces={['auth.signInLinkForm']}>
          <SignInLinkForm token={presented} />
        </ClientMessagesFor>
      ) : (
        <>
          <Alert tone="error" title={t(`unusable.${state}.title`)} role="alert">
            <p>
              {t(`unusable.${state}.body`)}{' '}
              {t.rich('issueNew', {
                command: SIGN_IN_LINK_COMMAND,
                code: (chunks) => <code className="font-mono text-sm">{chunks}</code>,
              })}
            </p>
          </Alert>
          <ButtonLink href="/sign-in" variant="secondary" className="w-full">
            {tAuth('backToSignIn')}
          </ButtonLink>
        </>
      )}
    </div>
  );
}
