'use client';
// The break-glass link's page asks before it signs in: opening the link (a mail scanner or a
// chat preview may do that) uses nothing; only this button's post does.
import { Loader2 } from 'lucide-react';
import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { type SignInLinkFormState, signInWithLinkAction } from '@/lib/auth/single-sign-on-actions';
import { refusalOf } from '@/lib/forms/form-state';

export function SignInLinkForm({ token }: { token: string }) {
  const [state, formAction, isPending] = useActionState<SignInLinkFormState, FormData>(signInWithLinkAction, {
    status: 'idle',
    values: {},
  });
  const refused = refusalOf(state);
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      {refused?.message ? (
        <Alert tone="error" title={refused.title ?? 'Not signed in'} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <Button type="submit" className="w-full" disabled={isPending}>
        {isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        {isPending ? 'Signing in…' : 'Sign in with this link'}
      </Button>
    </form>
  );
}
