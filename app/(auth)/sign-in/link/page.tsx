// A break-glass sign-in link (`npm run users -- sign-in-link <email>`): says at once whether the
// link still works, and signs in only when its button is pressed (lib/auth/sign-in-link.ts).
import type { Metadata } from 'next';
import { SignInLinkForm } from '@/components/auth/sign-in-link-form';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { signInLinkState } from '@/lib/auth/sign-in-link';
import { getDb } from '@/lib/db';

// The link's token is in this page's address: no other site is told it. (Not 'no-referrer': under
// it the form, posted without JavaScript, says "Origin: null", which the origin check refuses.)
export const metadata: Metadata = { title: 'Sign in with a link', referrer: 'same-origin' };

const UNUSABLE = {
  used: { title: 'This sign-in link has been used already', body: 'Each link signs in once.' },
  expired: { title: 'This sign-in link has expired', body: 'Links are valid for 15 minutes.' },
  invalid: { title: 'This is not a valid sign-in link', body: 'Check that the whole link was copied.' },
} as const;

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export default async function SignInLinkPage({ searchParams }: Props) {
  const { token } = await searchParams;
  const presented = typeof token === 'string' ? token : '';
  const state = await signInLinkState(await getDb(), presented);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-xl font-semibold text-slate-900">Sign in with a link</h1>
        <p className="mt-1 text-sm text-slate-600">The break-glass way in for administrators, issued on the server.</p>
      </div>
      {state === 'valid' ? (
        <SignInLinkForm token={presented} />
      ) : (
        <>
          <Alert tone="error" title={UNUSABLE[state].title} role="alert">
            <p>
              {UNUSABLE[state].body} An administrator with access to the server issues a new one with{' '}
              <code className="font-mono text-sm">npm run users -- sign-in-link &lt;email&gt;</code>.
            </p>
          </Alert>
          <ButtonLink href="/sign-in" variant="secondary" className="w-full">
            Back to sign-in
          </ButtonLink>
        </>
      )}
    </div>
  );
}
