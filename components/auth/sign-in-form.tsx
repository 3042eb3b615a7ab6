'use client';
import { Loader2 } from 'lucide-react';
// The sign-in form: posts to the sign-in action (with or without JavaScript) and shows one
// answer for any wrong combination of e-mail and password.
import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { type SignInState, signInAction } from '@/lib/auth/sign-in-and-setup-actions';
import { refusalOf } from '@/lib/forms/form-state';

export function SignInForm({ next }: { next: string }) {
  const [state, formAction, isPending] = useActionState<SignInState, FormData>(signInAction, { status: 'idle', values: { email: '' } });
  const refused = refusalOf(state);
  const emailError = refused?.fieldErrors.email?.[0];
  const passwordError = refused?.fieldErrors.password?.[0];
  return (
    <form action={formAction} className="space-y-5" noValidate>
      <input type="hidden" name="next" value={next} />
      {refused?.message ? (
        <Alert tone="error" title="Not signed in" role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <Field id="email" label="E-mail address" error={emailError}>
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
      <Field id="password" label="Password" error={passwordError}>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={passwordError ? true : undefined}
          aria-describedby={fieldDescribedBy('password', { error: !!passwordError })}
        />
      </Field>
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        {isPending ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
