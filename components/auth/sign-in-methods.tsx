// The ways in the sign-in page offers: the company's single sign-on when it is configured, and
// e-mail and password unless PASSWORD_SIGN_IN=off.
import { getTranslations } from 'next-intl/server';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { getSingleSignOnConfig, isPasswordSignInEnabled } from '@/lib/env';
import { SignInForm } from './sign-in-form';
import { SingleSignOnForm } from './single-sign-on-form';

export async function SignInMethods({ next }: { next: string }) {
  const singleSignOn = getSingleSignOnConfig();
  const passwords = isPasswordSignInEnabled();
  const t = await getTranslations('auth.signIn');
  return (
    <ClientMessagesFor namespaces={['auth.signInForm', 'auth.singleSignOnForm']}>
      <div className="space-y-6">
        {singleSignOn ? <SingleSignOnForm label={singleSignOn.label} next={next} /> : null}
        {singleSignOn && passwords ? (
          <div className="flex items-center gap-3 text-xs text-slate-500">
            <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
            {t('orWithPassword')}
            <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
          </div>
        ) : null}
        {passwords ? <SignInForm next={next} /> : null}
      </div>
    </ClientMessagesFor>
  );
}
