'use server';
// The name review form's server action: operators and administrators record whether a completed
// request's differing names belong to the same person (name-review.ts stores and audits it).
// Its words, the schema's among them, are in the language of the staff member who sends it.
import { revalidatePath } from 'next/cache';
import { getLocale, getTranslations } from 'next-intl/server';
import { formAction } from '@/lib/auth/form-action';
import { textField } from '@/lib/forms/action-input';
import type { FormState } from '@/lib/forms/form-state';
import { NOTE_MAX } from './labels';
import { NameReviewRefused, recordNameReview } from './name-review.server';
import { type NameReviewValues, nameReviewSchema } from './schema';

export type NameReviewFormState = FormState<NameReviewValues, { status: 'recorded'; values: NameReviewValues; message: string }>;

const KNOWN_STATUSES = new Set(['pending', 'completed', 'expired', 'failed']);

export async function recordNameReviewAction(previous: NameReviewFormState, formData: FormData) {
  const [t, tReview, tCommon, locale] = await Promise.all([
    getTranslations('detail.reviewAction'),
    getTranslations('detail.review'),
    getTranslations('common'),
    getLocale(),
  ]);
  const statusWord = (status: string) => (KNOWN_STATUSES.has(status) ? tCommon(`status.${status}`).toLocaleLowerCase(locale) : status);
  const action = formAction({
    permission: 'verification:review',
    schema: nameReviewSchema(tReview),
    read: (form): NameReviewValues => ({
      verificationId: textField(form, 'verificationId'),
      decision: textField(form, 'decision'),
      note: textField(form, 'note'),
    }),
    // What was typed goes back, cut to what the fields can hold (an oversized post is not echoed whole).
    values: (typed) => ({
      verificationId: typed.verificationId.slice(0, 200),
      decision: typed.decision.slice(0, 40),
      note: typed.note.slice(0, NOTE_MAX + 100),
    }),
    invalid: { status: 'invalid', message: t('invalid') },
    run: async ({ data, staff, refuse }): Promise<NameReviewFormState> => {
      try {
        await recordNameReview(staff.id, data);
      } catch (error) {
        if (!(error instanceof NameReviewRefused)) throw error;
        switch (error.reason) {
          case 'not_in_register':
            return refuse({ message: t('notInRegister') });
          case 'nothing_to_review':
            return refuse({ message: t('nothingToReview') });
          case 'four_eyes':
            return refuse({ message: t('fourEyes') });
          case 'not_completed':
            return refuse({ message: t('notCompleted', { status: statusWord(error.status ?? '') }) });
        }
      }
      revalidatePath(`/verifications/${encodeURIComponent(data.verificationId)}`);
      revalidatePath('/');
      return {
        status: 'recorded',
        values: { verificationId: data.verificationId, decision: data.decision, note: data.note },
        message: t('recorded'),
      };
    },
  });
  return action(previous, formData);
}
