// The page of an invitation link, open without a session: the invited colleague sets their
// own password here and is signed in. A link that no longer works says why and what to do.
// The token is in the path, so the page's Referer is its origin only (its own requests included).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { AcceptInvitationForm } from '@/components/auth/accept-invitation-form';
import { ClientMessagesFor } from '@/components/i18n/client-messages-for';
import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { LocalTime } from '@/components/ui/local-time';
import { lookupInvitation } from '@/lib/staff/invitations/invitations.server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('auth.invitation');
  return { title: t('metaTitle'), referrer: 'strict-origin', robots: { index: false, follow: false } };
}

type Props = { params: Promise<{ token: string }> };

const signInLink = (chunks: ReactNode) => (
  <Link href="/sign-in" className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
    {chunks}
  </Link>
);

function Problem({ heading, title, children }: { heading: string; title: string; children: ReactNode }) {
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
  const [invitation, t] = await Promise.all([lookupInvitation(token), getTranslations('auth.invitation')]);
  // LocalTime writes the time in the page's language (the root layout hands it down); the form's
  // words travel only with the form, so a page that offers none carries none of them.
  return content();

  function content() {
    switch (invitation.state) {
      case 'expired': {
        const expiresAt = invitation.expiresAt.toISOString();
        return (
          <Problem heading={t('expired.heading')} title={t('expired.title')}>
            <p>{t.rich('expired.body', { time: () => <LocalTime iso={expiresAt} /> })}</p>
          </Problem>
        );
      }
      case 'used':
        return (
          <Problem heading={t('used.heading')} title={t('used.title')}>
            <p>{t.rich('used.body', { link: signInLink })}</p>
          </Problem>
        );
      case 'disabled':
        return (
          <Problem heading={t('disabled.heading')} title={t('disabled.title')}>
            <p>{t('disabled.body')}</p>
          </Problem>
        );
      case 'single_sign_on':
        return (
          <Problem heading={t('singleSignOn.heading')} title={t('singleSignOn.title')}>
            <p>{t.rich('singleSignOn.body', { link: signInLink })}</p>
          </Problem>
        );
      case 'unknown':
        return (
          <Problem heading={t('unknown.heading')} title={t('unknown.title')}>
            <p>{t('unknown.body')}</p>
          </Problem>
        );
      case 'valid': {
        const expiresAt = invitation.expiresAt.toISOString();
        return (
          <div className="space-y-6">
            <div>
              <h1 className="text-xl font-semibold text-slate-900">{t('valid.heading', { name: invitation.name })}</h1>
              <p className="mt-1 text-sm text-slate-600">
                {t.rich('valid.body', {
                  email: invitation.email,
                  strong: (chunks) => <strong>{chunks}</strong>,
                  time: () => <LocalTime iso={expiresAt} />,
                })}
              </p>
            </div>
            <ClientMessagesFor namespaces={['auth.invitationForm', 'auth.validation']}>
              <AcceptInvitationForm token={token} email={invitation.email} />
            </ClientMessagesFor>
          </div>
        );
      }
    }
  }
}
