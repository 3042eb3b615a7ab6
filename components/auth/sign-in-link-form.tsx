'use client';
// The break-glass link's page asks before it signs in: opening the link (a mail scanner or a
// chat preview may do that) uses nothing; only this button's post does.
import { useActionState } from 'react';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { type SignInLinkFormState, signInWithLinkAction } from '@/lib/auth/sign-in/actions';
import { refusalOf } from '@/lib/forms/form-state';

export function SignInLinkForm({ token }: { token: string }) {
  const [state, formAction, isPending] = useActionState<SignInLinkFormState, FormData>(signInWithLinkAction, {
    status: 'idle',
    values: {},
  });
  const t = useClientTranslations('auth.signInLinkForm');
  const refused = refusalOf(state);
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      {refused?.message ? (
        <Alert tone="error" title={refused.title ?? t('notSignedIn')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <PendingSubmitButton pending={isPending} pendingLabel={t('pending')} className="w-full">
        {t('submit')}
      </PendingSubmitButton>
    </form>
  );
}
