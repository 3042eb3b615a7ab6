'use client';
// "Change password": the current password, the new one twice, and whether to end the other
// sessions (on by default). Posts to the server action with or without JavaScript; a refusal
// shows its message at the field it concerns and keeps the switch as it was, never a password.
import { useActionState } from 'react';
import { PasswordField } from '@/components/forms/password-field';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { Switch } from '@/components/ui/switch';
import { type ChangePasswordState, changePasswordAction } from '@/lib/account/actions';
import { PASSWORD_MIN } from '@/lib/auth/password-length';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';

export function ChangePasswordForm() {
  const t = useClientTranslations('account.passwordForm');
  const [state, formAction, isPending] = useActionState<ChangePasswordState, FormData>(changePasswordAction, {
    status: 'idle',
    values: { endOtherSessions: true },
  });
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];
  return (
    <div className="space-y-4">
      {state.status === 'changed' ? (
        <Alert tone="success" title={t('changed')} role="status">
          <p>{state.message}</p>
        </Alert>
      ) : null}
      {refused?.message ? (
        <Alert tone="error" title={refused.title ?? t('notChanged')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      {/* React empties the fields after each answer; the switch comes back as it was posted. */}
      <form action={formAction} className="max-w-md space-y-5" noValidate>
        <PasswordField id="currentPassword" label={t('currentPassword')} autoComplete="current-password" error={error('currentPassword')} />
        <PasswordField
          id="newPassword"
          label={t('newPassword')}
          hint={t('newPasswordHint', { min: PASSWORD_MIN })}
          autoComplete="new-password"
          error={error('newPassword')}
        />
        <PasswordField id="confirmPassword" label={t('confirmPassword')} autoComplete="new-password" error={error('confirmPassword')} />
        <Switch
          id="endOtherSessions"
          name="endOtherSessions"
          label={t('endOthers')}
          description={t('endOthersDescription')}
          defaultChecked={state.values.endOtherSessions}
        />
        <PendingSubmitButton pending={isPending}>{t('submit')}</PendingSubmitButton>
      </form>
    </div>
  );
}
