'use client';
// The single sign-on button: posts to the action that sends the browser on to the company's
// provider (a redirect, so it works without JavaScript too, CSP form-action permitting).
import { LogIn } from 'lucide-react';
import { useActionState } from 'react';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { type SingleSignOnState, startSingleSignOnAction } from '@/lib/auth/sign-in/actions';
import { refusalOf } from '@/lib/forms/form-state';

export function SingleSignOnForm({ label, next }: { label: string; next: string }) {
  const [state, formAction, isPending] = useActionState<SingleSignOnState, FormData>(startSingleSignOnAction, {
    status: 'idle',
    values: {},
  });
  const t = useClientTranslations('auth.singleSignOnForm');
  const refused = refusalOf(state);
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="next" value={next} />
      {refused?.message ? (
        <Alert tone="error" title={refused.title ?? t('notSignedIn')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <PendingSubmitButton pending={isPending} icon={<LogIn aria-hidden="true" className="size-4" />} className="w-full">
        {label}
      </PendingSubmitButton>
    </form>
  );
}
