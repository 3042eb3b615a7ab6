'use client';
// "Take it" on a queue row: a form posting to the assignment action (works without JavaScript).
// A refusal shows in the row, saying who took it first; a success re-renders the queue through
// the action's revalidation, and every other open queue through the live stream. The row keeps
// this component once the request is assigned, so that a refusal (which re-renders the page
// without JavaScript) still has a place to show; there is then no button to offer.
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Button } from '@/components/ui/button';
import { refusalOf } from '@/lib/forms/form-state';
import { type AssignmentFormState, changeAssignmentAction } from '@/lib/verifications/assignment/actions';

export function QueueTakeButton({ verificationId, name, assigned }: { verificationId: string; name: string; assigned: boolean }) {
  const t = useClientTranslations('queue.take');
  const [state, action, isPending] = useActionState<AssignmentFormState, FormData>(changeAssignmentAction, {
    status: 'idle',
    values: { verificationId, intent: 'take', to: '', expected: '' },
  });
  const refused = refusalOf(state);
  const errorId = `take-${verificationId}-error`;
  const refusal = refused?.message ? (
    <p id={errorId} role="alert" className="text-xs text-red-700">
      <span className="font-semibold">{t('refused')}</span> {refused.message}
    </p>
  ) : null;
  if (assigned) return refusal;
  return (
    <form action={action} className="flex flex-col items-start gap-1">
      <input type="hidden" name="verificationId" value={verificationId} />
      <input type="hidden" name="intent" value="take" />
      <input type="hidden" name="expected" value="" />
      <input type="hidden" name="to" value="" />
      <Button type="submit" variant="secondary" size="sm" disabled={isPending} aria-describedby={refused ? errorId : undefined}>
        {isPending ? t('taking') : t('button')}
        {/* Which request, for a screen reader going through the buttons alone. */}
        <span className="sr-only" translate="no">
          {name}
        </span>
      </Button>
      {refusal}
    </form>
  );
}
