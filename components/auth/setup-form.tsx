'use client';
// First-run form: the first administrator's name, e-mail and password.
import { useActionState } from 'react';
import { PasswordField } from '@/components/forms/password-field';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
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
  const t = useClientTranslations('auth.setupForm');
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
        <Alert tone="error" title={t('notCreated')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <Field id="name" label={t('name')} error={error('name')}>
        <Input id="name" name="name" autoComplete="name" defaultValue={state.values.name} {...described('name')} />
      </Field>
      <Field id="email" label={t('email')} error={error('email')}>
        <Input id="email" name="email" type="email" autoComplete="username" defaultValue={state.values.email} {...described('email')} />
      </Field>
      <PasswordField
        id="password"
        label={t('password')}
        hint={t('passwordHint', { min: PASSWORD_MIN })}
        autoComplete="new-password"
        error={error('password')}
      />
      <PasswordField id="confirmPassword" label={t('confirmPassword')} autoComplete="new-password" error={error('confirmPassword')} />
      <PendingSubmitButton pending={isPending} className="w-full">
        {t('submit')}
      </PendingSubmitButton>
    </form>
  );
}
