'use server';
// The name review form's server action: operators and administrators record whether a completed
// request's differing names belong to the same person (name-review.ts stores and audits it).
import { revalidatePath } from 'next/cache';
import { formAction } from '@/lib/auth/form-action';
import { textField } from '@/lib/forms/action-input';
import type { FormState } from '@/lib/forms/form-state';
import { NOTE_MAX } from './labels';
import { NameReviewRefused, recordNameReview } from './name-review.server';
import { type NameReviewValues, nameReviewSchema } from './schema';

export type NameReviewFormState = FormState<NameReviewValues, { status: 'recorded'; values: NameReviewValues; message: string }>;

export const recordNameReviewAction = formAction({
  permission: 'verification:review',
  schema: nameReviewSchema,
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
  invalid: { status: 'invalid', message: 'Correct the highlighted fields and submit again.' },
  run: async ({ data, staff, refuse }): Promise<NameReviewFormState> => {
    try {
      await recordNameReview(staff.id, data);
    } catch (error) {
      if (error instanceof NameReviewRefused) return refuse({ message: error.message });
      throw error;
    }
    revalidatePath(`/verifications/${encodeURIComponent(data.verificationId)}`);
    revalidatePath('/');
    return {
      status: 'recorded',
      values: { verificationId: data.verificationId, decision: data.decision, note: data.note },
      message: 'Decision recorded.',
    };
  },
});
