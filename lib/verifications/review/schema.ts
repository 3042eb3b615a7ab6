// The name review form's fields, checked by its server action in the reader's language. Client-safe.
// i18n: t = detail.review
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';
import { verificationIdField } from '@/lib/verifications/verification-id-field';
import { NAME_REVIEW_DECISIONS, NOTE_MAX } from './labels';

export function nameReviewSchema(t: Translate) {
  const noVerification = t('errors.verificationId');
  return z.object({
    verificationId: verificationIdField(noVerification),
    decision: z.enum(NAME_REVIEW_DECISIONS, { error: t('errors.decision') }),
    note: z
      .string()
      .trim()
      .min(1, t('errors.noteEmpty'))
      .max(NOTE_MAX, t('errors.noteTooLong', { max: NOTE_MAX }))
      // Line breaks and tabs are fine in a note; other control characters are not text.
      .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, t('errors.noteNotText')),
  });
}

export type NameReviewInput = z.output<ReturnType<typeof nameReviewSchema>>;

/** The fields as typed, what the action validates and what a refusal gives back. */
export type NameReviewValues = { verificationId: string; decision: string; note: string };
