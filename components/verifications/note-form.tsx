'use client';
// The form that adds an internal note to a request, or a correction of an earlier note (notes are
// never changed). It posts to a server action and works without JavaScript; a refusal comes back
// with what was typed and the error at its field, and after a note is added the form is empty
// again. Its words are 'detail.noteForm'; the hint (the limit, the retention date) comes resolved.
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Select, Textarea } from '@/components/ui/input';
import { type FieldErrors, refusalOf } from '@/lib/forms/form-state';
import { addNoteAction, type NoteFormState } from '@/lib/verifications/notes/actions';

export function NoteForm({
  verificationId,
  hint,
  choices,
}: {
  verificationId: string;
  hint: string;
  /** The notes a correction may correct: their ids and how the select names them. */
  choices: { id: string; label: string }[];
}) {
  const [state, formAction, isPending] = useActionState<NoteFormState, FormData>(addNoteAction, {
    status: 'idle',
    values: { verificationId, text: '', corrects: '' },
  });
  const t = useClientTranslations('detail.noteForm');
  const refused = refusalOf(state);
  const fieldErrors: FieldErrors = refused?.fieldErrors ?? {};
  const error = (field: string) => fieldErrors[field]?.[0];
  const added = state.status === 'added';
  // After a note is added the form starts empty again; after a refusal it shows what was sent.
  const values = added ? { text: '', corrects: '' } : state.values;

  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      {added ? <Alert tone="success" title={state.message} role="status" /> : null}
      {refused?.message ? (
        <Alert tone="error" title={t('notAdded')} role="alert">
          <p>{refused.message}</p>
        </Alert>
      ) : null}
      {/* A new key after each note: the uncontrolled fields start empty again. */}
      <form key={added ? `added-${state.noteId}` : 'form'} action={formAction} className="space-y-4" noValidate>
        <input type="hidden" name="verificationId" value={verificationId} />
        <Field id="note-text" label={t('label')} hint={hint} error={error('text')}>
          <Textarea
            id="note-text"
            name="text"
            rows={3}
            defaultValue={values.text}
            translate="no"
            aria-invalid={error('text') ? true : undefined}
            aria-describedby={['note-text-hint', error('text') ? 'note-text-error' : null].filter(Boolean).join(' ')}
          />
        </Field>
        {choices.length > 0 ? (
          <Field id="note-corrects" label={t('corrects')} error={error('corrects')} optional>
            <Select
              id="note-corrects"
              name="corrects"
              defaultValue={values.corrects}
              aria-invalid={error('corrects') ? true : undefined}
              aria-describedby={error('corrects') ? 'note-corrects-error' : undefined}
            >
              <option value="">{t('correctsNone')}</option>
              {choices.map((choice) => (
                <option key={choice.id} value={choice.id}>
                  {choice.label}
                </option>
              ))}
            </Select>
          </Field>
        ) : null}
        <Button type="submit" disabled={isPending}>
          {t('submit')}
        </Button>
      </form>
    </div>
  );
}
