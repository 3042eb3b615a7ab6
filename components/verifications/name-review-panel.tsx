'use client';
// The review of a name mismatch on the detail page: the latest decision (who, when, the note),
// and for operators and administrators the form to record or change it. The form posts to a
// server action and also works without JavaScript; a refusal comes back with what was typed and
// the error at its field. A decision recorded elsewhere shows here without a reload: the live
// stream announces it, and the page's server part is rendered again (components/live/live-updates.tsx).
import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, FieldError, fieldDescribedBy } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { LocalTime } from '@/components/ui/local-time';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';
import { cn } from '@/lib/utils';
import { type NameReviewFormState, recordNameReviewAction } from '@/lib/verifications/review/actions';
import {
  NAME_REVIEW_DECISION_LABELS,
  NAME_REVIEW_DECISIONS,
  type NameReviewDecision,
  NOTE_MAX,
  type ReviewSummary,
} from '@/lib/verifications/review/labels';

const DECISION_HINTS: Record<NameReviewDecision, string> = {
  same_person: 'The difference is harmless: a married name, a transliteration, a typing mistake.',
  different_person: 'Someone else completed this verification.',
};

export function NameReviewPanel({
  verificationId,
  review,
  canReview,
}: {
  verificationId: string;
  review: ReviewSummary | null;
  canReview: boolean;
}) {
  return (
    <div className="space-y-4">
      {review ? (
        <div className="space-y-1 text-sm" data-testid="review-decision">
          <h3 className="font-semibold text-slate-900">Decision: {NAME_REVIEW_DECISION_LABELS[review.decision]}</h3>
          <p className="text-slate-600">
            By {review.decidedByName ?? 'a former staff member'}, <LocalTime iso={review.decidedAt} />
          </p>
          <p className="whitespace-pre-line break-words text-slate-900">{review.note}</p>
        </div>
      ) : (
        <p className="text-sm text-slate-700">No decision has been recorded yet.</p>
      )}
      {canReview ? (
        <NameReviewForm verificationId={verificationId} current={review} />
      ) : (
        <p className="text-sm text-slate-600">Operators and administrators record the decision.</p>
      )}
    </div>
  );
}

function NameReviewForm({ verificationId, current }: { verificationId: string; current: ReviewSummary | null }) {
  const [state, formAction, isPending] = useActionState<NameReviewFormState, FormData>(recordNameReviewAction, {
    status: 'idle',
    values: { verificationId, decision: '', note: '' },
  });
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];
  const recorded = state.status === 'recorded';
  // After a decision the form starts empty again; after a refusal it shows what was sent.
  const values = recorded ? { decision: '', note: '' } : state.values;
  const legend = current ? 'Change the decision' : 'Record a decision';

  return (
    <div className="space-y-3">
      {recorded ? (
        <Alert tone="success" title={state.message} role="status">
          <p>It is shown above and in the audit trail.</p>
        </Alert>
      ) : null}
      {refused?.message ? (
        <Alert tone="error" title="The decision was not recorded" role="alert">
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
          <div className="grid gap-2 sm:grid-cols-2">
            {NAME_REVIEW_DECISIONS.map((decision) => (
              <label
                key={decision}
                className={cn(
                  'flex cursor-pointer gap-3 rounded-md p-3 text-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
                  'has-checked:bg-indigo-50 has-checked:ring-2 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-indigo-600',
                )}
              >
                <input
                  type="radio"
                  name="decision"
                  value={decision}
                  defaultChecked={values.decision === decision}
                  className="mt-0.5 size-4 accent-indigo-600"
                />
                <span>
                  <span className="block font-medium text-slate-900">{NAME_REVIEW_DECISION_LABELS[decision]}</span>
                  <span className="block text-slate-600">{DECISION_HINTS[decision]}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id="review-decision-error" message={error('decision')} />
        </fieldset>
        <Field
          id="review-note"
          label="Note"
          hint={`Why you decided this, in a sentence or two (up to ${NOTE_MAX} characters). Shown with the decision; not copied into the audit trail.`}
          error={error('note')}
        >
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
          {current ? 'Save the new decision' : 'Record the decision'}
        </Button>
      </form>
    </div>
  );
}
