// The page of an invitation link, open without a session: the invited colleague sets their
// own password here and is signed in. A link that no longer works says why and what to do.
// The token is in the path, so the page's Referer is its origin only (its own requests included).
import type { Metadata } from 'next';
import { AcceptInvitationForm } from '@/components/auth/accept-invitation-form';
import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { LocalTime } from '@/components/ui/local-time';
import { lookupInvitation } from '@/lib/staff/invitations/invitations.server';

export const metadata: Metadata = { title: 'Invitation', referrer: 'strict-origin', robots: { index: false, follow: false } };

type Props = { params: Promise<{ token: string }> };

const signInLink = (
  <Link href="/sign-in" className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
    Sign in
  </Link>
);

function Problem({ heading, title, children }: { heading: string; title: string; children: React.ReactNode }) {
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold text-slate-900">{heading}</h1>
      <Alert tone="warning" title={title}>
        {children}
      </Alert>
    </div>
  );
}

export default async function InvitationPage({ params }: Props) {
  const { token } = await params;
  // A segment Next could not decode arrives as it was typed; a token never needs decoding.
  const invitation = await lookupInvitation(token);
  switch (invitation.state) {
    case 'expired':
      return (
        <Problem heading="Invitation expired" title="This invitation has expired.">
          <p>
            This invitation expired on <LocalTime iso={invitation.expiresAt.toISOString()} />. Ask an administrator for a new one.
          </p>
        </Problem>
      );
    case 'used':
      return (
        <Problem heading="Invitation already used" title="This invitation was already used.">
          <p>The password for this account has been set. {signInLink} with it.</p>
        </Problem>
      );
    case 'disabled':
      return (
        <Problem heading="Invitation not valid" title="This account is disabled.">
          <p>The invitation no longer lets anyone in. If you think this is a mistake, ask an administrator.</p>
        </Problem>
      );
    case 'single_sign_on':
      return (
        <Problem heading="Invitation not valid" title="This account signs in with your company’s single sign-on.">
          <p>No password is set for it here, so this invitation no longer works. {signInLink} with your company’s sign-in instead.</p>
        </Problem>
      );
    case 'unknown':
      return (
        <Problem heading="Invitation not valid" title="This invitation link is not valid.">
          <p>
            It may be mistyped or cut short, or an administrator issued a newer link that replaced it. Ask an administrator for a new one.
          </p>
        </Problem>
      );
    case 'valid':
      return (
        <div className="space-y-6">
          <div>
            <h1 className="text-xl font-semibold text-slate-900">Welcome, {invitation.name}. Set your password</h1>
            <p className="mt-1 text-sm text-slate-600">
              You will sign in to Verification Desk as <strong>{invitation.email}</strong>. This link works once, until{' '}
              <LocalTime iso={invitation.expiresAt.toISOString()} />.
            </p>
          </div>
          <AcceptInvitationForm token={token} email={invitation.email} />
        </div>
      );
  }
}
