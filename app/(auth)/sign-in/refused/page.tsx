// Where a single sign-on that did not let someone in ends (lib/auth/single-sign-on-callback.ts
// sends the browser here with the reason). It says why in words a colleague can act on, and
// no more than that: it names no account and no address.
import type { Metadata } from 'next';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import type { SingleSignOnRefusal } from '@/lib/auth/single-sign-on-callback';

export const metadata: Metadata = { title: 'Not signed in' };

const REFUSALS: Record<SingleSignOnRefusal, { title: string; body: string }> = {
  unknown: {
    title: 'No staff account for this sign-in',
    body: 'Your company’s sign-in worked, but no staff account of this dashboard has the e-mail address it gave. Ask an administrator to add you, with the same e-mail address as at the company sign-in.',
  },
  unverified: {
    title: 'Your e-mail address is not verified',
    body: 'Your company’s sign-in did not confirm that your e-mail address is verified, so it cannot be matched to a staff account. Ask your company’s IT to verify the address, then try again.',
  },
  disabled: {
    title: 'This account is disabled',
    body: 'The staff account for this sign-in has been disabled. Ask an administrator to enable it again.',
  },
  other_identity: {
    title: 'This account is linked to another sign-in',
    body: 'The staff account with this e-mail address is already linked to a different account at your company’s sign-in. Sign in with that one; if it is no longer yours, ask an administrator.',
  },
  failed: {
    title: 'Single sign-on did not complete',
    body: 'The sign-in was cancelled, took too long, or could not be checked. Start it again from the sign-in page.',
  },
};

type Props = { searchParams: Promise<{ reason?: string }> };

export default async function SingleSignOnRefusedPage({ searchParams }: Props) {
  const { reason } = await searchParams;
  const refusal = REFUSALS[(reason && Object.hasOwn(REFUSALS, reason) ? reason : 'failed') as SingleSignOnRefusal];
  return (
    <div className="space-y-6">
      <h1 className="text-xl font-semibold text-slate-900">Not signed in</h1>
      <Alert tone="error" title={refusal.title} role="alert">
        <p>{refusal.body}</p>
      </Alert>
      <ButtonLink href="/sign-in" variant="secondary" className="w-full">
        Back to sign-in
      </ButtonLink>
    </div>
  );
}
