// The assignment form's fields, checked by its server action in the reader's language. Client-safe:
// the detail page's panel and the queue's buttons post the same fields.
// i18n: t = detail.assignment
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';
import { verificationIdField } from '@/lib/verifications/verification-id-field';

/** take: for oneself; give: to the colleague in `to`; release: back to nobody. */
export const ASSIGNMENT_INTENTS = ['take', 'give', 'release'] as const;

export function assignmentSchema(t: Translate) {
  return z
    .object({
      verificationId: verificationIdField(t('errors.verificationId')),
      intent: z.enum(ASSIGNMENT_INTENTS, { error: t('errors.intent') }),
      // The colleague, for "give"; ignored otherwise.
      to: z.string().trim().max(200, t('errors.to')),
      // The assignee the page showed ('' for nobody): the change is made only if it still is.
      expected: z.string().trim().max(200, t('errors.expected')),
    })
    .refine((data) => data.intent !== 'give' || data.to !== '', { path: ['to'], message: t('errors.to') });
}

export type AssignmentInput = z.output<ReturnType<typeof assignmentSchema>>;

/** The fields as typed, what the action validates and what a refusal gives back. */
export type AssignmentValues = { verificationId: string; intent: string; to: string; expected: string };
