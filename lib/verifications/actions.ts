'use server';
// Server actions of the verifications feature. A server action is a public POST endpoint: each
// one authorizes and validates its input itself (the browser's validation is a convenience, not
// a guard); the create form's action does both through formAction.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { authorizedAction } from '@/lib/auth/guards';
import { stringProperty } from '@/lib/forms/action-input';
import { formAction } from '@/lib/forms/form-action';
import { logger } from '@/lib/platform/log';
import { VerificationServiceError } from '@/lib/verification-service/errors';
import { describeServiceError } from '@/lib/verification-service/messages';
import { createLimitQuery, createLimitRefusal } from '@/lib/verifications/create-rate-limit';
import { CreateLimitReachedError, createVerificationOnce, SubmissionInProgressError } from './create-verification';
import { checkFollowUp } from './follow-up';
import type { CreateVerificationFormState, FollowUpOutcome } from './form-state';
import { recordLinkCopy } from './link-copy-audit';
import { createVerificationSchema, formValuesFromFormData } from './schema';
import { canonicalVerificationId } from './verification-id';

const log = logger.child({ area: 'verifications' });

const submissionKeySchema = z.uuid();

/** The form's submission key, if it sent a well-formed one. */
function submissionKeyOf(formData: FormData): string | undefined {
  const parsed = submissionKeySchema.safeParse(formData.get('submissionKey'));
  return parsed.success ? parsed.data : undefined;
}

export const createVerificationAction = formAction({
  permission: 'verification:create',
  schema: createVerificationSchema,
  read: formValuesFromFormData,
  values: (typed) => typed,
  // The fields are checked before the key: a form with mistakes (an empty one included) is
  // answered field by field, whatever its key, so the caller learns what is wrong rather than
  // only that the key is.
  invalid: {
    status: 'invalid',
    title: 'Some details need your attention',
    message: 'Nothing was created. Correct the highlighted fields and submit again.',
  },
  // A refused caller keeps the key its form holds; otherwise the form's own key goes back, or a
  // fresh one when it sent none that could be used.
  carry: ({ formData, previous }, reason) => ({
    submissionKey:
      (reason === 'unauthenticated' || reason === 'forbidden' ? stringProperty(previous, 'submissionKey') : submissionKeyOf(formData)) ??
      randomUUID(),
  }),
  run: async ({ data, staff, formData, refuse }): Promise<CreateVerificationFormState> => {
    // A missing or forged key must not bypass the once-only guarantee: give the form a fresh
    // key and ask for one more click rather than guessing.
    const submissionKey = submissionKeyOf(formData);
    if (!submissionKey) {
      return refuse({ title: 'The form has expired', message: 'Nothing was created. Check the details and submit the form again.' });
    }

    // A follow-up the register cannot confirm is reported, never a reason to refuse the create:
    // the new request is what staff came for.
    const followUp = await followUpOf(formData);
    try {
      // The create limit's slot is taken after validation (a form with mistakes costs no slot),
      // in the create's first statement, before the service is called.
      const created = await createVerificationOnce(
        submissionKey,
        data,
        staff.id,
        followUp?.linked ? followUp.verificationId : null,
        createLimitQuery(staff.id, submissionKey),
      );
      const summary = {
        name: data.name,
        language: data.language,
        channels: {
          shareableLink: data.shareableLink ?? false,
          emailNotification: !data.shareableLink && (data.emailNotification ?? true),
          smsNotification: data.smsNotification ?? false,
        },
      };
      return { status: 'created', submissionKey: randomUUID(), created: { ...created, summary, followUp } };
    } catch (error) {
      if (error instanceof CreateLimitReachedError) {
        return refuse(createLimitRefusal(error.decision));
      }
      if (error instanceof SubmissionInProgressError) {
        return refuse({
          title: 'This form was already submitted',
          message: 'An earlier submission of this form has not finished. Check Recent requests before you submit it again.',
        });
      }
      if (!(error instanceof VerificationServiceError)) log.error({ err: error }, 'creating a verification failed unexpectedly');
      const { title, message } = describeServiceError(error, 'create');
      return refuse({ title, message });
    }
  },
});

/** The request the form follows up (its hidden field), checked against the register; none when the field is absent or empty. */
async function followUpOf(formData: FormData): Promise<FollowUpOutcome | undefined> {
  const raw = formData.get('followsVerificationId');
  if (raw === null || raw === '') return undefined;
  const check = await checkFollowUp(raw);
  if (check.ok) return { verificationId: check.entry.verificationId, linked: true };
  return { verificationId: check.verificationId, linked: false, message: check.message };
}

// Ids are opaque, but PostgreSQL cannot store NUL in text (the audit row would fail: a 500).
const verificationIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]*$/);

const INVALID_VERIFICATION_ID = 'verificationId must be the text of a verification id (1 to 200 characters, no control characters).';

/**
 * Called when staff copy a shareable link: the copy itself happens in the browser; this leaves the
 * trace, for a link the register holds only, within a per-person limit (link-copy-audit.ts).
 */
export const recordLinkCopiedAction = authorizedAction(
  'link:copy',
  async (staff, verificationId: string): Promise<{ ok: boolean; error?: string }> => {
    const parsed = verificationIdSchema.safeParse(verificationId);
    if (!parsed.success) return { ok: false, error: INVALID_VERIFICATION_ID };
    return recordLinkCopy(staff.id, canonicalVerificationId(parsed.data));
  },
  (_denial, _verificationId: string): { ok: boolean; error?: string } => ({ ok: false }),
);
