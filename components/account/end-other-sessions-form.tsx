'use client';
// "Sign out all other sessions": one button, with its answer beside it. Works without JavaScript.
import { Loader2 } from 'lucide-react';
import { useActionState } from 'react';
import { Button } from '@/components/ui/button';
import { type EndOtherSessionsState, endOtherSessionsAction } from '@/lib/account/account-actions';
import { refusalOf } from '@/lib/forms/form-state';

export function EndOtherSessionsForm({ others }: { others: number }) {
  const [state, formAction, isPending] = useActionState<EndOtherSessionsState, FormData>(endOtherSessionsAction, {
    status: 'idle',
    values: {},
  });
  const refused = refusalOf(state);
  const message = state.status === 'done' ? state.message : refused?.message;
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-3">
      <Button type="submit" variant="danger" disabled={isPending || others === 0}>
        {isPending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : null}
        Sign out all other sessions
      </Button>
      <span role="status" className={refused ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}>
        {message ?? ''}
      </span>
    </form>
  );
}
