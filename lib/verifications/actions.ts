'use server';
// Server actions of the verifications feature. A server action is a public POST endpoint:
// each one validates its input itself (the browser's validation is a convenience, not a guard).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { recordAudit } from '@/lib/audit/audit';
import { authorizedAction, DENIAL_MESSAGES } from '@/lib/auth/guards';
import { formDataArg, stringProperty } from '@/lib/forms/action-input';
import { logger } from '@/lib/platform/log';
import { VerificationServiceError } from '@/lib/verification-service/errors';
import { describeServiceError } from '@/lib/verification-service/messages';
import { checkCreateRateLimit } from '@/lib/verifications/create-rate-limit';
import { createVerificationOnce, SubmissionInProgressError } from './create-verification';
import type { CreateVerificationFormState } from './form-state';
import { type CreateVerificationFieldErrors, createVerificationSchema, formValuesFromFormData } from './schema';

const log = logger.child({ area: 'verifications' });

const submissionKeySchema = z.uuid();

export const createVerificationAction = authorizedAction(
  'verification:create',
  async (staff, _previous: CreateVerificationFormState, formData: FormData): Promise<CreateVerificationFormState> =>
    createVerificationFromForm(staff.id, formDataArg(formData)),
  // Refused before anything else happens, but the form gets its values back.
  (denial, previous, formData): CreateVerificationFormState => ({
    status: 'failed',
    submissionKey: stringProperty(previous, 'submissionKey') ?? randomUUID(),
    values: formValuesFromFormData(formDataArg(formData)),
    fieldErrors: {},
    ...DENIAL_MESSAGES[denial],
  }),
);

async function createVerificationFromForm(staffId: string, formData: FormData): Promise<CreateVerificationFormState> {
  const values = formValuesFromFormData(formData);
  const keyResult = submissionKeySchema.safeParse(formData.get('submissionKey'));

  // The fields first: a form with mistakes (an empty one included) is answered field by field,
  // whatever its key, so the caller learns what is wrong rather than only that the key is.
  const parsed = createVerificationSchema.safeParse(values);
  if (!parsed.success) {
    return {
      status: 'invalid',
      submissionKey: keyResult.success ? keyResult.data : randomUUID(),
      values,
      fieldErrors: z.flattenError(parsed.error).fieldErrors as CreateVerificationFieldErrors,
      title: 'Some details need your attention',
      message: 'Nothing was created. Correct the highlighted fields and submit again.',
    };
  }

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

  // After validation (a form with mistakes costs no slot), before the service is called.
  const rateLimit = checkCreateRateLimit(staffId, submissionKey);
  if (!rateLimit.allowed) {
    return { status: 'failed', submissionKey, values, fieldErrors: {}, title: rateLimit.title, message: rateLimit.message };
  }

  try {
    const created = await createVerificationOnce(submissionKey, parsed.data, staffId);
    log.info({ verificationId: created.verificationId, staffId }, 'verification created');
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
    if (!(error instanceof VerificationServiceError)) log.error({ err: error }, 'creating a verification failed unexpectedly');
    const { title, message } = describeServiceError(error, 'create');
    return { status: 'failed', submissionKey, values, fieldErrors: {}, title, message };
  }
}

// Ids are opaque, but PostgreSQL cannot store NUL in text (the audit row would fail: a 500).
const verificationIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]*$/);

const INVALID_VERIFICATION_ID = 'verificationId must be the text of a verification id (1 to 200 characters, no control characters).';

/** Called when staff copy a shareable link: the copy itself happens in the browser; this leaves the trace. */
export const recordLinkCopiedAction = authorizedAction(
  'link:copy',
  async (staff, verificationId: string): Promise<{ ok: boolean; error?: string }> => {
    const parsed = verificationIdSchema.safeParse(verificationId);
    if (!parsed.success) return { ok: false, error: INVALID_VERIFICATION_ID };
    await recordAudit({ actorId: staff.id, action: 'link.copied', target: { type: 'verification', id: parsed.data } });
    return { ok: true };
  },
  (_denial, _verificationId: string): { ok: boolean; error?: string } => ({ ok: false }),
);
