'use client';
// "Sign out all other sessions": one button, with its answer beside it. Works without JavaScript.
import { useActionState } from 'react';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { type EndOtherSessionsState, endOtherSessionsAction } from '@/lib/account/actions';
import { refusalOf } from '@/lib/forms/form-state';

export function EndOtherSessionsForm({ others }: { others: number }) {
  const t = useClientTranslations('account.sessionsForm');
  const [state, formAction, isPending] = useActionState<EndOtherSessionsState, FormData>(endOtherSessionsAction, {
    status: 'idle',
    values: {},
  });
  const refused = refusalOf(state);
  const message = state.status === 'done' ? state.message : refused?.message;
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-3">
      <PendingSubmitButton pending={isPending} disabled={isPending || others === 0} variant="danger">
        {t('submit')}
      </PendingSubmitButton>
      <span role="status" className={refused ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}>
        {message ?? ''}
      </span>
    </form>
  );
}
