'use client';
// First-run form: the first administrator's name, e-mail and password.
import { useActionState } from 'react';
import { PasswordField } from '@/components/forms/password-field';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { Alert } from '@/components/ui/alert';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PASSWORD_MIN } from '@/lib/auth/password-length';
import { type SetupState, setupAction } from '@/lib/auth/sign-in/actions';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';

export function SetupForm({ token }: { token: string }) {
  const [state, formAction, isPending] = useActionState<SetupState, FormData>(setupAction, {
    status: 'idle',
    values: { name: '', email: '' },
  });
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];
  const described = (field: string, hint = false) => ({
    'aria-invalid': error(field) ? true : undefined,
    'aria-describedby': fieldDescribedBy(field, { hint, error: !!error(field) }),
  });
  return (
    <form action={formAction} className="space-y-5" noValidate>
      <input type="hidden" name="token" value={token} />
      {refused?.message ? (
        <Alert tone="error" title="The administrator was not created" role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <Field id="name" label="Your name" error={error('name')}>
        <Input id="name" name="name" autoComplete="name" defaultValue={state.values.name} {...described('name')} />
      </Field>
      <Field id="email" label="E-mail address" error={error('email')}>
        <Input id="email" name="email" type="email" autoComplete="username" defaultValue={state.values.email} {...described('email')} />
      </Field>
      <PasswordField
        id="password"
        label="Password"
        hint={`At least ${PASSWORD_MIN} characters.`}
        autoComplete="new-password"
        error={error('password')}
      />
      <PasswordField id="confirmPassword" label="Repeat the password" autoComplete="new-password" error={error('confirmPassword')} />
      <PendingSubmitButton pending={isPending} className="w-full">
        Create the administrator
      </PendingSubmitButton>
    </form>
  );
}
