// The assignment form's fields, checked by its server action in the reader's language. Client-safe:
// the detail page's panel and the queue's buttons post the same fields.
// i18n: t = detail.assignment
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';

/** take: for oneself; give: to the colleague in `to`; release: back to nobody. */
export const ASSIGNMENT_INTENTS = ['take', 'give', 'release'] as const;

// Ids are opaque, but a control character cannot be in one (and Postgres refuses NUL).
const id = (message: string) =>
  z
    .string()
    .trim()
    .min(1, message)
    .max(200, message)
    .regex(/^[^\u0000-\u001f\u007f]*$/, message);

export function assignmentSchema(t: Translate) {
  return z
    .object({
      verificationId: id(t('errors.verificationId')),
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
