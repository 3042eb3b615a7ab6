'use server';
// The note form's server action: operators and administrators add an internal note (or a
// correction of an earlier one) to a request in the register; notes.server.ts stores and audits
// it. A viewer reads notes but is refused here. Its words, the schema's among them, are in the
// language of the staff member who sends it.
import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { formAction } from '@/lib/auth/form-action';
import { textField } from '@/lib/forms/action-input';
import type { FormState } from '@/lib/forms/form-state';
import { addNote, NoteRefused } from './notes.server';
import { NOTE_TEXT_MAX, type NoteValues, noteSchema } from './schema';

export type NoteFormState = FormState<NoteValues, { status: 'added'; values: NoteValues; message: string; noteId: string }>;

export async function addNoteAction(previous: NoteFormState, formData: FormData) {
  const [t, tNotes] = await Promise.all([getTranslations('detail.noteAction'), getTranslations('detail.notes')]);
  const action = formAction({
    permission: 'verification:note',
    schema: noteSchema(tNotes),
    read: (form): NoteValues => ({
      verificationId: textField(form, 'verificationId'),
      text: textField(form, 'text'),
      corrects: textField(form, 'corrects'),
    }),
    // What was typed goes back, cut to what the fields can hold (an oversized post is not echoed whole).
    values: (typed) => ({
      verificationId: typed.verificationId.slice(0, 200),
      text: typed.text.slice(0, NOTE_TEXT_MAX + 100),
      corrects: typed.corrects.slice(0, 40),
    }),
    invalid: { status: 'invalid', message: t('invalid') },
    run: async ({ data, staff, refuse }): Promise<NoteFormState> => {
      let noteId: string;
      try {
        ({ id: noteId } = await addNote(staff.id, data));
      } catch (error) {
        if (!(error instanceof NoteRefused)) throw error;
        switch (error.reason) {
          case 'not_in_register':
            return refuse({ message: t('notInRegister') });
          case 'corrects_unknown':
            return refuse({ message: t('correctsUnknown'), fieldErrors: { corrects: [t('correctsUnknown')] } });
        }
      }
      revalidatePath(`/verifications/${encodeURIComponent(data.verificationId)}`);
      return { status: 'added', values: { verificationId: data.verificationId, text: '', corrects: '' }, message: t('added'), noteId };
    },
  });
  return action(previous, formData);
}
