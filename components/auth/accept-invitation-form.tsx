'use client';
import { Loader2 } from 'lucide-react';
// The invited colleague's new password, typed twice. The browser checks it with the same schema
// as the server (length, both the same) before posting; the server adds the common-password
// check. It posts without JavaScript too. Nothing typed comes back after a refusal.
import { useActionState, useState } from 'react';
import { z } from 'zod';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldDescribedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { acceptInvitationSchema, PASSWORD_MIN } from '@/lib/auth/schemas';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';
import { type AcceptInvitationState, acceptInvitationAction } from '@/lib/staff/invitation-actions';

export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const [state, formAction, isPending] = useActionState<AcceptInvitationState, FormData>(acceptInvitationAction, {
    status: 'idle',
    values: {},
  });
  const [browserErrors, setBrowserErrors] = useState<FieldErrors | null>(null);
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = browserErrors ?? refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];
  const described = (field: string, hint = false) => ({
    'aria-invalid': error(field) ? true : undefined,
    'aria-describedby': fieldDescribedBy(field, { hint, error: !!error(field) }),
  });

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
        <Alert tone="error" title="Your password was not set" role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <Field
        id="password"
        label="New password"
        hint={`At least ${PASSWORD_MIN} characters. A few unrelated words make a good one.`}
        error={error('password')}
      >
        <Input id="password" name="password" type="password" autoComplete="new-password" {...described('password', true)} />
      </Field>
      <Field id="confirmPassword" label="Repeat the password" error={error('confirmPassword')}>
        <Input id="confirmPassword" name="confirmPassword" type="password" autoComplete="new-password" {...described('confirmPassword')} />
      </Field>
      {/* For password managers: the account this new password belongs to. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        {isPending ? 'Setting your password…' : 'Set password and sign in'}
      </Button>
    </form>
  );
}
