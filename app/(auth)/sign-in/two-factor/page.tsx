// The code prompt after a correct password, for an account with a second factor. The pending
// sign-in is better-auth's signed cookie (checked by the action); without one there is nothing
// to finish here, and the page says so instead of showing a form that cannot succeed.
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { type PromptMethod, TwoFactorPromptForm } from '@/components/auth/two-factor-prompt-form';
import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { SESSION_COOKIE_PREFIX } from '@/lib/auth/auth';
import { safeReturnPath } from '@/lib/auth/request-info';
import { getCurrentStaff } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Two-factor sign-in' };

type Props = { searchParams: Promise<{ next?: string; method?: string }> };

const PENDING_COOKIES = [`${SESSION_COOKIE_PREFIX}.two_factor`, `__Secure-${SESSION_COOKIE_PREFIX}.two_factor`];

export default async function TwoFactorPromptPage({ searchParams }: Props) {
  const { next, method } = await searchParams;
  const returnTo = safeReturnPath(next);
  if (await getCurrentStaff()) redirect(returnTo);
  const chosen: PromptMethod = method === 'backup' ? 'backup' : 'totp';
  const jar = await cookies();
  const pending = PENDING_COOKIES.some((name) => jar.has(name));
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{chosen === 'totp' ? 'Enter your code' : 'Enter a backup code'}</h1>
        <p className="mt-1 text-sm text-slate-600">Your password was right. One more step: your second factor.</p>
      </div>
      {pending ? (
        <TwoFactorPromptForm key={chosen} method={chosen} next={returnTo} />
      ) : (
        <Alert tone="info" title="No sign-in is waiting for a code" role="status">
          <p>
            It may have run out after 10 minutes.{' '}
            <Link
              href={returnTo === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(returnTo)}`}
              className="font-medium underline underline-offset-2 hover:no-underline"
            >
              Sign in with your e-mail address and password
            </Link>
            .
          </p>
        </Alert>
      )}
    </div>
  );
}
