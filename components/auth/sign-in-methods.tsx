// The ways in the sign-in page offers: the company's single sign-on when it is configured, and
// e-mail and password unless PASSWORD_SIGN_IN=off.
import { getSingleSignOnConfig, isPasswordSignInEnabled } from '@/lib/env';
import { SignInForm } from './sign-in-form';
import { SingleSignOnForm } from './single-sign-on-form';

export function SignInMethods({ next }: { next: string }) {
  const singleSignOn = getSingleSignOnConfig();
  const passwords = isPasswordSignInEnabled();
  return (
    <div className="space-y-6">
      {singleSignOn ? <SingleSignOnForm label={singleSignOn.label} next={next} /> : null}
      {singleSignOn && passwords ? (
        <div className="flex items-center gap-3 text-xs text-slate-500">
          <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
          or with your e-mail address and password
          <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
        </div>
      ) : null}
      {passwords ? <SignInForm next={next} /> : null}
    </div>
  );
}
