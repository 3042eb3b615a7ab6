'use client';
// The review of a name mismatch on the detail page: the latest decision (who, when, the note),
// and for operators and administrators the form to record or change it. The form posts to a
// server action and also works without JavaScript; a refusal comes back with what was typed and
// the error at its field. A decision recorded elsewhere shows here without a reload: the live
// stream announces it, and the page's server part is rendered again (components/live/live-updates.tsx).
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, FieldError, fieldDescribedBy } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { LocalTime } from '@/components/ui/local-time';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';
import { cn } from '@/lib/utils';
import { type NameReviewFormState, recordNameReviewAction } from '@/lib/verifications/review/actions';
import { NAME_REVIEW_DECISIONS, NOTE_MAX, type ReviewSummary, type SameDecisionRule } from '@/lib/verifications/review/labels';

export function NameReviewPanel({
  verificationId,
  review,
  canReview,
  sameDecision,
}: {
  verificationId: string;
  review: ReviewSummary | null;
  canReview: boolean;
  /** Who may record "same person" (four eyes), as the reader is concerned. */
  sameDecision: SameDecisionRule;
}) {
  const t = useClientTranslations('detail.review');
  const tDecision = useClientTranslations('common.nameReviewDecision');
  return (
    <div className="space-y-4">
      {review ? (
        <div className="space-y-1 text-sm" data-testid="review-decision">
          <h3 className="font-semibold text-slate-900">{t('decision', { decision: tDecision(review.decision) })}</h3>
          <p className="text-slate-600">
            {t('by', { name: review.decidedByName ?? t('formerStaff') })} <LocalTime iso={review.decidedAt} />
          </p>
          <p className="whitespace-pre-line break-words text-slate-900" translate="no">
            {review.note}
          </p>
        </div>
      ) : (
        <p className="text-sm text-slate-700">{t('noDecision')}</p>
      )}
      {/* The form is for the screen: a printed page keeps the decision above. */}
      {canReview ? (
        <div className="print:hidden">
          <NameReviewForm verificationId={verificationId} current={review} sameDecision={sameDecision} />
        </div>
      ) : (
        <p className="text-sm text-slate-600 print:hidden">
          {t('whoDecides')}
          {sameDecision === 'anyone' ? null : ` ${t('whoDecidesFourEyes')}`}
        </p>
      )}
    </div>
  );
}

function NameReviewForm({
  verificationId,
  current,
  sameDecision,
}: {
  verificationId: string;
  current: ReviewSummary | null;
  sameDecision: SameDecisionRule;
}) {
  const [state, formAction, isPending] = useActionState<NameReviewFormState, FormData>(recordNameReviewAction, {
    status: 'idle',
    values: { verificationId, decision: '', note: '' },
  });
  const t = useClientTranslations('detail.review');
  const tDecision = useClientTranslations('common.nameReviewDecision');
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];
  const recorded = state.status === 'recorded';
  // After a decision the form starts empty again; after a refusal it shows what was sent.
  const values = recorded ? { decision: '', note: '' } : state.values;
  const legend = current ? t('legendChange') : t('legendRecord');

  return (
    <div className="space-y-3">
      {recorded ? (
        <Alert tone="success" title={state.message} role="status">
          <p>{t('recordedDetail')}</p>
        </Alert>
      ) : null}
      {refused?.message ? (
        <Alert tone="error" title={t('notRecorded')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      <form
        key={recorded ? `recorded-${state.values.decision}-${state.values.note}` : 'form'}
        action={formAction}
        className="space-y-4"
        noValidate
      >
        <input type="hidden" name="verificationId" value={verificationId} />
        <fieldset
          className="space-y-2"
          aria-describedby={error('decision') ? 'review-decision-error' : undefined}
          aria-invalid={error('decision') ? true : undefined}
        >
          <legend className="text-sm font-semibold text-slate-900">{legend}</legend>
          {sameDecision === 'anyone' ? null : (
            <p id="review-four-eyes" className="text-sm text-slate-600">
              {sameDecision === 'not_you' ? t('fourEyesNotYou') : t('fourEyesNotCreator')}
            </p>
          )}
          <div className="grid gap-2 sm:grid-cols-2">
            {NAME_REVIEW_DECISIONS.map((decision) => (
              <label
                key={decision}
                className={cn(
                  'flex cursor-pointer gap-3 rounded-md p-3 text-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
                  // The creator may not accept their own request's mismatch (four eyes): the server refuses it too.
                  'has-disabled:cursor-not-allowed has-disabled:opacity-60 has-disabled:hover:bg-transparent',
                  'has-checked:bg-indigo-50 has-checked:ring-2 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-indigo-600',
                )}
              >
                <input
                  type="radio"
                  name="decision"
                  value={decision}
                  defaultChecked={values.decision === decision}
                  disabled={decision === 'same_person' && sameDecision === 'not_you'}
                  aria-describedby={decision === 'same_person' && sameDecision !== 'anyone' ? 'review-four-eyes' : undefined}
                  className="mt-0.5 size-4 accent-indigo-600"
                />
                <span>
                  <span className="block font-medium text-slate-900">{tDecision(decision)}</span>
                  <span className="block text-slate-600">{decision === 'same_person' ? t('hintSame') : t('hintDifferent')}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="review-decision-error" message={error('decision')} />
        </fieldset>
        <Field id="review-note" label={t('note')} hint={t('noteHint', { max: NOTE_MAX })} error={error('note')}>
          <Textarea
            id="review-note"
            name="note"
            rows={3}
            defaultValue={values.note}
            aria-invalid={error('note') ? true : undefined}
            aria-describedby={fieldDescribedBy('review-note', { hint: true, error: !!error('note') })}
          />
        </Field>
        <Button type="submit" disabled={isPending}>
          {current ? t('saveNew') : t('record')}
        </Button>
      </form>
    </div>
  );
}
