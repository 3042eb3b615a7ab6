import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInMethods } from '@/components/auth/sign-in-methods';
import { Alert } from '@/components/ui/alert';
import { safeReturnPath } from '@/lib/auth/request-info';
import { getCurrentStaff } from '@/lib/auth/session';

export const metadata: Metadata = { title: 'Sign in' };

type Props = { searchParams: Promise<{ next?: string; signedOut?: string }> };

export default async function SignInPage({ searchParams }: Props) {
  const { next, signedOut } = await searchParams;
  const returnTo = safeReturnPath(next);
  if (await getCurrentStaff()) redirect(returnTo);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
        <p className="mt-1 text-sm text-slate-600">For compliance staff. Ask an administrator for an account.</p>
      </div>
      {signedOut ? <Alert tone="info" title="You are signed out." role="status" /> : null}
      <SignInMethods next={returnTo} />
    </div>
  );
}
