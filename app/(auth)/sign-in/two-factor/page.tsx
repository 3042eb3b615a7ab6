// The code prompt after a correct password, for an account with a second factor. The pending
// sign-in is better-auth's signed cookie (checked by the action); without one there is nothing
// to finish here, and the page says so instead of showing a form that cannot succeed.
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { type PromptMethod, TwoFactorPromptForm } from '@/components/auth/two-factor-prompt-form';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { SESSION_COOKIE_PREFIX } from '@/lib/auth/auth';
import { HOME_PATH } from '@/lib/auth/landing';
import { safeReturnPath } from '@/lib/auth/request-info';
import { getCurrentStaff } from '@/lib/auth/session';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('auth.twoFactor');
  return { title: t('metaTitle') };
}

type Props = { searchParams: Promise<{ next?: string; method?: string }> };

const PENDING_COOKIES = [`${SESSION_COOKIE_PREFIX}.two_factor`, `__Secure-${SESSION_COOKIE_PREFIX}.two_factor`];

export default async function TwoFactorPromptPage({ searchParams }: Props) {
  const { next, method } = await searchParams;
  const returnTo = safeReturnPath(next);
  if (await getCurrentStaff()) redirect(returnTo);
  const chosen: PromptMethod = method === 'backup' ? 'backup' : 'totp';
  const [jar, t] = await Promise.all([cookies(), getTranslations('auth.twoFactor')]);
  const pending = PENDING_COOKIES.some((name) => jar.has(name));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{chosen === 'totp' ? t('totpTitle') : t('backupTitle')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('intro')}</p>
      </div>
      {pending ? (
        <ClientMessagesFor namespaces={['auth.twoFactorForm']}>
          <TwoFactorPromptForm key={chosen} method={chosen} next={returnTo} />
        </ClientMessagesFor>
      ) : (
        <Alert tone="info" title={t('noPending.title')} role="status">
          <p>
            {t.rich('noPending.body', {
              link: (chunks) => (
                <Link
                  href={returnTo === HOME_PATH ? '/sign-in' : `/sign-in?next=${encodeURIComponent(returnTo)}`}
                  className="font-medium underline underline-offset-2 hover:no-underline"
                >
                  {chunks}
                </Link>
              ),
            })}
          </p>
        </Alert>
      )}
    </div>
  );
}
