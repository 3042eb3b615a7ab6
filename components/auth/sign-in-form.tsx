'use client';
// The sign-in form: posts to the sign-in action (with or without JavaScript) and shows one
// answer for any wrong combination of e-mail and password.
import { useActionState } from 'react';
import { PasswordField } from '@/components/forms/password-field';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type SignInState, signInAction } from '@/lib/auth/sign-in/actions';
import { refusalOf } from '@/lib/forms/form-state';

export function SignInForm({ next }: { next: string }) {
  const [state, formAction, isPending] = useActionState<SignInState, FormData>(signInAction, { status: 'idle', values: { email: '' } });
  const t = useClientTranslations('auth.signInForm');
  const refused = refusalOf(state);
  const emailError = refused?.fieldErrors.email?.[0];
  const passwordError = refused?.fieldErrors.password?.[0];
  return (
    <form action={formAction} className="space-y-5" noValidate>
      <input type="hidden" name="next" value={next} />
      {refused?.message ? (
        <Alert tone="error" title={t('notSignedIn')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <Field id="email" label={t('email')} error={emailError}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          defaultValue={state.values.email}
          aria-invalid={emailError ? true : undefined}
          aria-describedby={fieldDescribedBy('email', { error: !!emailError })}
        />
      </Field>
      <PasswordField id="password" label={t('password')} autoComplete="current-password" required error={passwordError} />
      <PendingSubmitButton pending={isPending} pendingLabel={t('pending')} className="w-full">
        {t('submit')}
      </PendingSubmitButton>
    </form>
  );
}
