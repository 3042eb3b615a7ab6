// The name review form's fields, checked the same way in the browser and by its server action.
// Client-safe.
import { z } from 'zod';
import { NAME_REVIEW_DECISIONS, NOTE_MAX } from './labels';

export const nameReviewSchema = z.object({
  // Ids are opaque, but a control character cannot be in one (and Postgres refuses NUL).
  verificationId: z
    .string()
    .trim()
    .min(1, 'The form does not say which verification it is for: reload the page.')
    .max(200, 'The form does not say which verification it is for: reload the page.')
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'The form does not say which verification it is for: reload the page.'),
  decision: z.enum(NAME_REVIEW_DECISIONS, { error: 'Choose “Same person” or “Not the same person”.' }),
  note: z
    .string()
    .trim()
    .min(1, 'Write a short note saying why you decided this.')
    .max(NOTE_MAX, `Keep the note to ${NOTE_MAX} characters or fewer.`)
    // Line breaks and tabs are fine in a note; other control characters are not text.
    .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'The note contains characters that are not text.'),
});

export type NameReviewInput = z.output<typeof nameReviewSchema>;

/** The fields as typed, what the action validates and what a refusal gives back. */
export type NameReviewValues = { verificationId: string; decision: string; note: string };
