// The create use case behind the create form's action: check the request it follows up (if any),
// create it exactly once within the creator's limit (create-verification.server.ts), and sum up
// what was sent for the result panel; every failure comes back as words for staff.
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { logger } from '@/lib/platform/log';
import type { CreateVerificationRequest } from '@/lib/verification-service';
import { VerificationServiceError } from '@/lib/verification-service/errors';
import { checkFollowUp } from '@/lib/verifications/follow-up/follow-up.server';
import { CreateLimitReachedError, createVerificationOnce, SubmissionInProgressError } from './create-verification.server';
import type { CreatedVerification, FollowUpOutcome } from './form-state';
import { createLimitQuery, createLimitRefusal } from './rate-limit.server';
import { describeCreateError } from './service-error-words.server';

const log = logger.child({ area: 'verifications' });

export type CreateOutcome = { ok: true; created: CreatedVerification } | { ok: false; refusal: { title: string; message: string } };

export async function createRequest({
  submissionKey,
  request,
  staffId,
  followsVerificationId,
}: {
  submissionKey: string;
  request: CreateVerificationRequest;
  staffId: string;
  /** The form's raw follow-up field: absent or empty when the request follows up nothing. */
  followsVerificationId: unknown;
}): Promise<CreateOutcome> {
  // A follow-up the register cannot confirm is reported, never a reason to refuse the create:
  // the new request is what staff came for.
  const followUp = await followUpOf(followsVerificationId);
  try {
    // The create limit's slot is taken after validation (a form with mistakes costs no slot),
    // in the create's first statement, before the service is called.
    const created = await createVerificationOnce(
      submissionKey,
      request,
      staffId,
      followUp?.linked ? followUp.verificationId : null,
      createLimitQuery(staffId, submissionKey),
    );
    const summary = {
      name: request.name,
      language: request.language,
      channels: {
        shareableLink: request.shareableLink ?? false,
        emailNotification: !request.shareableLink && (request.emailNotification ?? true),
        smsNotification: request.smsNotification ?? false,
      },
    };
    return { ok: true, created: { ...created, summary, followUp } };
  } catch (error) {
    if (error instanceof CreateLimitReachedError) return { ok: false, refusal: await createLimitRefusal(error.decision) };
    if (error instanceof SubmissionInProgressError) {
      const t = await getTranslations('create.action');
      return { ok: false, refusal: { title: t('alreadySubmittedTitle'), message: t('alreadySubmittedMessage') } };
    }
    if (!(error instanceof VerificationServiceError)) log.error({ err: error }, 'creating a verification failed unexpectedly');
    const { title, message } = await describeCreateError(error);
    return { ok: false, refusal: { title, message } };
  }
}

/** The request the form follows up, checked against the register; none when the field is absent or empty. */
async function followUpOf(raw: unknown): Promise<FollowUpOutcome | undefined> {
  if (raw === null || raw === undefined || raw === '') return undefined;
  const check = await checkFollowUp(raw);
  if (check.ok) return { verificationId: check.entry.verificationId, linked: true };
  return { verificationId: check.verificationId, linked: false, message: check.message };
}
