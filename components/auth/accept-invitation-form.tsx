'use client';
// The invited colleague's new password, typed twice. The browser checks it with the same schema
// as the server (length, both the same) before posting; the server adds the common-password
// check. It posts without JavaScript too. Nothing typed comes back after a refusal.
import { useActionState, useMemo, useState } from 'react';
import { z } from 'zod';
import { PasswordField } from '@/components/forms/password-field';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { PASSWORD_MIN } from '@/lib/auth/password-length';
import { acceptInvitationSchemaIn } from '@/lib/auth/schemas';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';
import { type AcceptInvitationState, acceptInvitationAction } from '@/lib/staff/invitations/actions';

export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const [state, formAction, isPending] = useActionState<AcceptInvitationState, FormData>(acceptInvitationAction, {
    status: 'idle',
    values: {},
  });
  const t = useClientTranslations('auth.invitationForm');
  const tValidation = useClientTranslations('auth.validation');
  const acceptInvitationSchema = useMemo(() => acceptInvitationSchemaIn(tValidation), [tValidation]);
  const [browserErrors, setBrowserErrors] = useState<FieldErrors | null>(null);
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = browserErrors ?? refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];

  function checkInBrowser(event: React.FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    const parsed = acceptInvitationSchema.safeParse({ password: form.get('password'), confirmPassword: form.get('confirmPassword') });
    if (parsed.success) {
      setBrowserErrors(null);
      return;
    }
    event.preventDefault();
    setBrowserErrors(z.flattenError(parsed.error).fieldErrors);
  }

  return (
    <form action={formAction} onSubmit={checkInBrowser} className="space-y-5" noValidate>
      <input type="hidden" name="token" value={token} />
      {refused?.message && !browserErrors ? (
        <Alert tone="error" title={t('notSet')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <PasswordField
        id="password"
        label={t('password')}
        hint={t('passwordHint', { min: PASSWORD_MIN })}
        autoComplete="new-password"
        error={error('password')}
      />
      <PasswordField id="confirmPassword" label={t('confirmPassword')} autoComplete="new-password" error={error('confirmPassword')} />
      {/* For password managers: the account this new password belongs to. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <PendingSubmitButton pending={isPending} pendingLabel={t('pending')} className="w-full">
        {t('submit')}
      </PendingSubmitButton>
    </form>
  );
}
