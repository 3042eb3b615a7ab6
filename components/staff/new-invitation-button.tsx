'use client';
// "New invitation link" on a staff row, for a colleague who has not set a password yet (or whose
// link expired or got lost): issuing one voids the older link, and the new one is shown once here.
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { InvitationLinkPanel } from '@/components/staff/invitation-link-panel';
import { Button } from '@/components/ui/button';
import { type IssueInvitationState, issueInvitationAction } from '@/lib/staff/invitations/actions';

const idle: IssueInvitationState = { status: 'idle', values: {} };

export function NewInvitationButton({ userId, name, email }: { userId: string; name: string; email: string }) {
  const t = useClientTranslations('staff.row');
  const [state, issue, issuing] = useActionState(issueInvitationAction, idle);
  return (
    <div className="space-y-2">
      <form action={issue}>
        <input type="hidden" name="userId" value={userId} />
        <Button type="submit" variant="secondary" size="sm" disabled={issuing}>
          <span aria-hidden="true">{t('newInvitation')}</span>
          <span className="sr-only">{t('newInvitationFor', { name })}</span>
        </Button>
      </form>
      {state.status === 'issued' ? (
        <div role="status" className="rounded bg-emerald-50 p-3 text-sm text-emerald-950 ring-1 ring-emerald-200">
          <InvitationLinkPanel id={`invitation-${userId}`} link={state.link} email={email} expiresAt={state.expiresAt} />
        </div>
      ) : null}
      {state.status === 'failed' || state.status === 'invalid' ? (
        <p role="alert" className="text-sm text-red-700">
          {state.message}
        </p>
      ) : null}
    </div>
  );
}
