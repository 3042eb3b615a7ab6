// The note form's fields, checked by its server action in the reader's language. Client-safe:
// the limits are what the form's hint states.
// i18n: t = detail.notes
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';
import { verificationIdField } from '@/lib/verifications/verification-id-field';

/** The database refuses anything longer too (verification_notes_text_length). */
export const NOTE_TEXT_MAX = 2000;

// Note ids are the database's UUIDs: anything else cannot be a note, and must not reach a uuid column.
const NOTE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function noteSchema(t: Translate) {
  const noVerification = t('errors.verificationId');
  return z.object({
    verificationId: verificationIdField(noVerification),
    text: z
      .string()
      .trim()
      .min(1, t('errors.textEmpty'))
      .max(NOTE_TEXT_MAX, t('errors.textTooLong', { max: NOTE_TEXT_MAX }))
      // Line breaks and tabs are fine in a note; other control characters are not text (and Postgres refuses NUL).
      .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, t('errors.textNotText')),
    /** The earlier note this one corrects; empty for a new note. Same request: checked by the server module. */
    corrects: z
      .string()
      .trim()
      .refine((value) => value === '' || NOTE_ID.test(value), t('errors.corrects'))
      .transform((value) => (value === '' ? null : value.toLowerCase())),
  });
}

export type NoteInput = z.output<ReturnType<typeof noteSchema>>;

/** The fields as typed, what the action validates and what a refusal gives back. */
export type NoteValues = { verificationId: string; text: string; corrects: string };
