// The create-verification form's schema, shared by the browser (instant validation) and the
// server action (which validates again: never trust the client). It speaks the staff's terms
// (a purpose picked from a list, a phone typed with spaces) and its output is the exact body
// of the service's POST /v1/verifications/new. No server imports here: it ships to the browser.
//
// Its messages are in the reader's language: each side passes its translate function for the
// create.schema catalog (the browser its client catalog's, the server action next-intl's).
// i18n: t = create.schema
import '@/lib/platform/zod-jitless';
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';
import type { CreateVerificationRequest } from '@/lib/verification-service/schemas';
import { LANGUAGES, PREDEFINED_PURPOSES } from '@/lib/verifications/labels';
import { type CreateVerificationFormValues, EMAIL_MAX, NAME_MAX, OTHER_PURPOSE, PURPOSE_MAX } from './form-values';
import { type CountryCode, checkPhoneNumber } from './phone-number';

export type { CreateVerificationFieldErrors, CreateVerificationFormValues } from './form-values';
export { EMAIL_MAX, emptyCreateVerificationForm, formValuesFromFormData, NAME_MAX, OTHER_PURPOSE, PURPOSE_MAX } from './form-values';

const purposeChoices: [string, ...string[]] = [OTHER_PURPOSE, ...PREDEFINED_PURPOSES.map((p) => p.value)];
const languageCodes = LANGUAGES.map((l) => l.value) as [string, ...string[]];

export { isE164, normalizePhone } from './phone-number';

// A deliberately small e-mail check: the service owns delivery; this catches typos.
const emailFormat = z.email();

export type CreateVerificationSchema = z.ZodType<CreateVerificationRequest, CreateVerificationFormValues>;

export type CreateVerificationSchemaOptions = {
  /** The messages' words: a translate function for the create.schema catalog. */
  t: Translate;
  /** The reader's language, for the names of countries in the phone number's messages. */
  language: string;
  /** The region a phone number typed without its country code belongs to (DEFAULT_PHONE_REGION). */
  defaultPhoneRegion?: CountryCode;
};

// One schema per translate function and region: the browser keeps its translate function for the
// page's life, and asks often; the server's is new with each request.
const schemas = new WeakMap<Translate, Map<string, CreateVerificationSchema>>();

/** The form's schema for a team's settings, in the reader's language. */
export function createVerificationSchemaFor({
  t,
  language,
  defaultPhoneRegion,
}: CreateVerificationSchemaOptions): CreateVerificationSchema {
  let byRegion = schemas.get(t);
  if (!byRegion) {
    byRegion = new Map();
    schemas.set(t, byRegion);
  }
  const key = `${language}|${defaultPhoneRegion ?? ''}`;
  let schema = byRegion.get(key);
  if (!schema) {
    schema = buildSchema(t, language, defaultPhoneRegion);
    byRegion.set(key, schema);
  }
  return schema;
}

function buildSchema(t: Translate, language: string, defaultPhoneRegion: CountryCode | undefined): CreateVerificationSchema {
  const words = { t, language };
  return (
    z
      .object({
        name: z
          .string()
          .trim()
          .min(1, t('nameRequired'))
          .max(NAME_MAX, t('nameTooLong', { max: NAME_MAX }))
          .regex(/^[^\u0000-\u001f\u007f]*$/, t('nameControlCharacters')),
        email: z
          .string()
          .trim()
          .max(EMAIL_MAX, t('emailTooLong', { max: EMAIL_MAX })),
        purpose: z.enum(purposeChoices, { error: t('purposeRequired') }),
        customPurpose: z
          .string()
          .trim()
          .max(PURPOSE_MAX, t('purposeTooLong', { max: PURPOSE_MAX }))
          .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, t('purposeControlCharacters')),
        language: z.enum(languageCodes, { error: t('languageRequired') }),
        shareableLink: z.boolean(),
        emailNotification: z.boolean(),
        smsNotification: z.boolean(),
        phone: z.string().trim().max(40, t('phoneTooLong')),
      })
      // Cross-field rules run even when another field is invalid, so every problem shows at once.
      .superRefine(
        (values, ctx) => {
          const email = typeof values.email === 'string' ? values.email.trim() : '';
          if (!values.shareableLink && email === '') {
            // With SMS on, the problem is the channel choice: say so at the SMS switch.
            ctx.addIssue(
              values.smsNotification
                ? { code: 'custom', path: ['smsNotification'], message: t('smsNeedsEmailOrLink') }
                : {
                    code: 'custom',
                    path: ['email'],
                    message: t('emailRequired'),
                  },
            );
          } else if (email !== '' && !emailFormat.safeParse(email).success) {
            ctx.addIssue({ code: 'custom', path: ['email'], message: t('emailInvalid') });
          }
          if (values.purpose === OTHER_PURPOSE && (typeof values.customPurpose !== 'string' || values.customPurpose.trim() === '')) {
            ctx.addIssue({ code: 'custom', path: ['customPurpose'], message: t('customPurposeRequired') });
          }
          if (values.smsNotification) {
            const phone = checkPhoneNumber(typeof values.phone === 'string' ? values.phone : '', defaultPhoneRegion, words);
            if ('error' in phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: phone.error });
          }
        },
        { when: () => true },
      )
      .transform((values): CreateVerificationRequest => {
        const body: CreateVerificationRequest = {
          name: values.name,
          chosenPurpose: values.purpose === OTHER_PURPOSE ? values.customPurpose : values.purpose,
          language: values.language as CreateVerificationRequest['language'],
          shareableLink: values.shareableLink,
          // With a shareable link the service sends no e-mail (contract §4.1 rule 1); say so explicitly.
          emailNotification: values.shareableLink ? false : values.emailNotification,
          smsNotification: values.smsNotification,
        };
        if (values.email !== '') body.email = values.email;
        if (values.smsNotification) {
          const phone = checkPhoneNumber(values.phone, defaultPhoneRegion, words);
          // Checked above: the transform runs only when every rule passed.
          if ('phone' in phone) body.phonenumber = phone.phone;
        }
        return body;
      })
  );
}
