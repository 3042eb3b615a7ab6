'use client';
// "Change password": the current password, the new one twice, and whether to end the other
// sessions (on by default). Posts to the server action with or without JavaScript; a refusal
// shows its message at the field it concerns and keeps the switch as it was, never a password.
import { Loader2 } from 'lucide-react';
import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Switch } from '@/components/ui/switch';
import { type ChangePasswordState, changePasswordAction } from '@/lib/account/account-actions';
import { PASSWORD_MIN } from '@/lib/auth/schemas';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';

export function ChangePasswordForm() {
  const [state, formAction, isPending] = useActionState<ChangePasswordState, FormData>(changePasswordAction, {
    status: 'idle',
    values: { endOtherSessions: true },
  });
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];
  const described = (field: string, hint = false) => ({
    'aria-invalid': error(field) ? true : undefined,
    'aria-describedby': fieldDescribedBy(field, { hint, error: !!error(field) }),
  });
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
        <Field id="currentPassword" label="Current password" error={error('currentPassword')}>
          <Input
            id="currentPassword"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            {...described('currentPassword')}
          />
        </Field>
        <Field
          id="newPassword"
          label="New password"
          hint={`At least ${PASSWORD_MIN} characters, not one of the common ones. A few unrelated words work well.`}
          error={error('newPassword')}
        >
          <Input id="newPassword" name="newPassword" type="password" autoComplete="new-password" {...described('newPassword', true)} />
        </Field>
        <Field id="confirmPassword" label="Repeat the new password" error={error('confirmPassword')}>
          <Input
            id="confirmPassword"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            {...described('confirmPassword')}
          />
        </Field>
        <Switch
          id="endOtherSessions"
          name="endOtherSessions"
          label="Sign out my other sessions"
          description="Every other browser signed in to your account is signed out at once. This one stays signed in."
          defaultChecked={state.values.endOtherSessions}
        />
        <Button type="submit" disabled={isPending}>
          {isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
          Change password
        </Button>
      </form>
    </div>
  );
}
