'use client';
// "Change password": the current password, the new one twice, and whether to end the other
// sessions (on by default). Posts to the server action with or without JavaScript; a refusal
// shows its message at the field it concerns and keeps the switch as it was, never a password.
import { useActionState } from 'react';
import { PasswordField } from '@/components/forms/password-field';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { Alert } from '@/components/ui/alert';
import { Switch } from '@/components/ui/switch';
import { type ChangePasswordState, changePasswordAction } from '@/lib/account/actions';
import { PASSWORD_MIN } from '@/lib/auth/password-length';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';

export function ChangePasswordForm() {
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
        <Alert tone="success" title="Password changed" role="status">
          <p>{state.message}</p>
        </Alert>
      ) : null}
      {refused?.message ? (
        <Alert tone="error" title={refused.title ?? 'The password was not changed'} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      {/* React empties the fields after each answer; the switch comes back as it was posted. */}
      <form action={formAction} className="max-w-md space-y-5" noValidate>
        <PasswordField id="currentPassword" label="Current password" autoComplete="current-password" error={error('currentPassword')} />
        <PasswordField
          id="newPassword"
          label="New password"
          hint={`At least ${PASSWORD_MIN} characters, not one of the common ones. A few unrelated words work well.`}
          autoComplete="new-password"
          error={error('newPassword')}
        />
        <PasswordField id="confirmPassword" label="Repeat the new password" autoComplete="new-password" error={error('confirmPassword')} />
        <Switch
          id="endOtherSessions"
          name="endOtherSessions"
          label="Sign out my other sessions"
          description="Every other browser signed in to your account is signed out at once. This one stays signed in."
          defaultChecked={state.values.endOtherSessions}
        />
        <PendingSubmitButton pending={isPending}>Change password</PendingSubmitButton>
      </form>
    </div>
  );
}
