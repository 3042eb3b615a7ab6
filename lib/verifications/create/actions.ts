'use server';
// Server actions of the create room: the create itself, the create page's access check, and the
// trace of a copied shareable link. A server action is a public POST endpoint: each one
// authorizes and validates its input itself (the browser's validation is a convenience, not a
// guard); the create form's action does both through formAction.
import { randomUUID } from 'node:crypto';
import { getLocale, getTranslations } from 'next-intl/server';
import { z } from 'zod';
import { formAction } from '@/lib/auth/form-action';
import { authorizedAction, DENIAL_MESSAGES, type Denial } from '@/lib/auth/guards';
import { getEnv } from '@/lib/env';
import { stringProperty } from '@/lib/forms/action-input';
import type { Translate } from '@/lib/i18n/translate';
import { canonicalVerificationId } from '@/lib/verification-service/contract/verification-id';
import { verificationIdField } from '@/lib/verifications/verification-id-field';
import { createRequest } from './create-request.server';
import type { CreateVerificationFormState } from './form-state';
import { recordLinkCopy } from './link-copy-audit.server';
import { createVerificationSchemaFor, formValuesFromFormData } from './schema';

const submissionKeySchema = z.uuid();

/** The form's submission key, if it sent a well-formed one. */
function submissionKeyOf(formData: FormData): string | undefined {
  const parsed = submissionKeySchema.safeParse(formData.get('submissionKey'));
  return parsed.success ? parsed.data : undefined;
}

/**
 * The create form's action. Its words (the schema's messages, the refusals) are in the reader's
 * language, so the form-action wrapper is set up for each post with this request's translators.
 */
export async function createVerificationAction(
  previous: CreateVerificationFormState,
  formData: FormData,
): Promise<CreateVerificationFormState> {
  const [tSchema, t, language] = await Promise.all([getTranslations('create.schema'), getTranslations('create.action'), getLocale()]);
  const action = formAction({
    permission: 'verification:create',
    schema: () => createVerificationSchemaFor({ t: tSchema as Translate, language, defaultPhoneRegion: getEnv().DEFAULT_PHONE_REGION }),
    read: formValuesFromFormData,
    values: (typed) => typed,
    // The fields are checked before the key: a form with mistakes (an empty one included) is
    // answered field by field, whatever its key, so the caller learns what is wrong rather than
    // only that the key is.
    invalid: {
      status: 'invalid',
      title: t('invalidTitle'),
      message: t('invalidMessage'),
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
      if (!submissionKey) return refuse({ title: t('expiredTitle'), message: t('expiredMessage') });

      const outcome = await createRequest({
        submissionKey,
        request: data,
        staffId: staff.id,
        followsVerificationId: formData.get('followsVerificationId'),
      });
      return outcome.ok ? { status: 'created', submissionKey: randomUUID(), created: outcome.created } : refuse(outcome.refusal);
    },
  });
  return action(previous, formData);
}

// Ids are opaque, but PostgreSQL cannot store NUL in text (the audit row would fail: a 500).
const INVALID_VERIFICATION_ID = 'verificationId must be the text of a verification id (1 to 200 characters, no control characters).';

/**
 * Called when staff copy a shareable link: the copy itself happens in the browser; this leaves the
 * trace, for a link the register holds only, within a per-person limit (link-copy-audit.server.ts).
 */
export const recordLinkCopiedAction = authorizedAction(
  'link:copy',
  async (staff, verificationId: string): Promise<{ ok: boolean; error?: string }> => {
    const parsed = verificationIdField(INVALID_VERIFICATION_ID).safeParse(verificationId);
    if (!parsed.success) return { ok: false, error: INVALID_VERIFICATION_ID };
    return recordLinkCopy(staff.id, canonicalVerificationId(parsed.data));
  },
  (_denial, _verificationId: string): { ok: boolean; error?: string } => ({ ok: false }),
);

// "May I still create requests?", asked by the create page when staff come back to its tab: a
// session that ended meanwhile (signed out elsewhere, expired, account disabled, role changed)
// is said at once, before more is typed into a form the server would refuse. It authorizes
// exactly as the create action does (the same guard, the same permission) and does nothing
// else, which also makes it the bench's measure of what any authorized action on that page
// costs before its own work (e2e/bench/figures/overhead.mjs). Its answers are constants: a
// caller learns nothing but whether its own session may create (in their language).
export type CreateAccess = { allowed: true } | { allowed: false; title: string; message: string };

const ALLOWED: CreateAccess = { allowed: true };

/** What a session that may no longer create is told, in the reader's language. */
async function refusedAccess(denial: Denial): Promise<CreateAccess> {
  if (denial === 'two_factor_required') return { allowed: false, ...DENIAL_MESSAGES.two_factor_required };
  const t = await getTranslations('create.action');
  return denial === 'unauthenticated'
    ? { allowed: false, title: t('sessionEndedTitle'), message: t('sessionEndedMessage') }
    : { allowed: false, title: t('forbiddenTitle'), message: t('forbiddenMessage') };
}

export const checkCreateAccessAction = authorizedAction(
  'verification:create',
  async (): Promise<CreateAccess> => ALLOWED,
  (denial): Promise<CreateAccess> => refusedAccess(denial),
);
