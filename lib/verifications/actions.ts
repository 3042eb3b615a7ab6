'use server';
// Server actions of the verifications feature. A server action is a public POST endpoint:
// each one validates its input itself (the browser's validation is a convenience, not a guard).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { describeServiceError } from '@/lib/verification-service/messages';
import { createVerificationOnce, SubmissionInProgressError } from './create-verification';
import type { CreateVerificationFormState } from './form-state';
import { createVerificationSchema, formValuesFromFormData, type CreateVerificationFieldErrors } from './schema';

const submissionKeySchema = z.uuid();

export async function createVerificationAction(
  _previous: CreateVerificationFormState,
  formData: FormData,
): Promise<CreateVerificationFormState> {
  const values = formValuesFromFormData(formData);
  const keyResult = submissionKeySchema.safeParse(formData.get('submissionKey'));
  // A missing or forged key must not bypass the once-only guarantee: give the form a fresh
  // key and ask for one more click rather than guessing.
  if (!keyResult.success) {
    return {
      status: 'failed',
      submissionKey: randomUUID(),
      values,
      fieldErrors: {},
      title: 'The form has expired',
      message: 'Nothing was created. Check the details and submit the form again.',
    };
  }
  const submissionKey = keyResult.data;

  const parsed = createVerificationSchema.safeParse(values);
  if (!parsed.success) {
    return {
      status: 'invalid',
      submissionKey,
      values,
      fieldErrors: z.flattenError(parsed.error).fieldErrors as CreateVerificationFieldErrors,
      title: 'Some details need your attention',
      message: 'Nothing was created. Correct the highlighted fields and submit again.',
    };
  }

  try {
    const created = await createVerificationOnce(submissionKey, parsed.data);
    return { status: 'created', submissionKey: randomUUID(), created };
  } catch (error) {
    if (error instanceof SubmissionInProgressError) {
      return {
        status: 'failed',
        submissionKey,
        values,
        fieldErrors: {},
        title: 'This form was already submitted',
        message: 'An earlier submission of this form has not finished. Check Recent requests before you submit it again.',
      };
    }
    const { title, message } = describeServiceError(error, 'create');
    return { status: 'failed', submissionKey, values, fieldErrors: {}, title, message };
  }
}
