'use client';
// "Check the chain now": one button, and the verdict beside it. Works without JavaScript.
import { useActionState } from 'react';
import { PendingSubmitButton } from '@/components/forms/pending-submit-button';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { type CheckChainState, checkAuditChainAction } from '@/lib/audit-trail/actions';
import { refusalOf } from '@/lib/forms/form-state';

export function CheckChainForm() {
  const t = useClientTranslations('audit.chain.check');
  const [state, formAction, isPending] = useActionState<CheckChainState, FormData>(checkAuditChainAction, { status: 'idle', values: {} });
  const refused = refusalOf(state);
  const message = state.status === 'checked' ? state.message : refused?.message;
  const good = state.status === 'checked' && state.intact;
  return (
    <form action={formAction} className="flex flex-wrap items-center gap-3">
      <PendingSubmitButton pending={isPending} disabled={isPending} variant="secondary" size="sm">
        {t('submit')}
      </PendingSubmitButton>
      <span role="status" className={good ? 'text-sm text-emerald-700' : 'text-sm text-red-700'}>
        {message ?? ''}
      </span>
    </form>
  );
}
