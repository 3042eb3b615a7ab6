// The create-verification form's schema, shared by the browser (instant validation) and the
// server action (which validates again: never trust the client). It speaks the staff's terms
// (a purpose picked from a list, a phone typed with spaces) and its output is the exact body
// of the service's POST /v1/verifications/new. No server imports here: it ships to the browser.
import '@/lib/platform/zod-jitless';
import { z } from 'zod';
import type { CreateVerificationRequest } from '@/lib/verification-service/schemas';
import { LANGUAGES, PREDEFINED_PURPOSES } from '@/lib/verifications/labels';
import { type CreateVerificationFormValues, EMAIL_MAX, NAME_MAX, OTHER_PURPOSE, PURPOSE_MAX } from './form-values';
import { type CountryCode, checkPhoneNumber } from './phone-number';

export type { CreateVerificationFieldErrors, CreateVerificationFormValues } from './form-values';
export { EMAIL_MAX, emptyCreateVerificationForm, formValuesFromFormData, NAME_MAX, OTHER_PURPOSE, PURPOSE_MAX } from './form-values';

const purposeChoices: [string, ...string[]] = [OTHER_PURPOSE, ...PREDEFINED_PURPOSES.map((p) => p.value)];
const languageCodes = LANGUAGES.map((l) => l.value) as [string, ...string[]];

export { isE164, normalizePhone } from './phone-number';

/**
 * Contract §2.1: an e-mail address is required unless a shareable link is used, so an SMS can
 * only go along with one of them. Shown at the SMS switch, where the choice is made.
 */
export const SMS_NEEDS_EMAIL_OR_LINK =
  'An SMS cannot be the only way to reach the person: the service needs their e-mail address unless you use a shareable link. Enter their e-mail address above, or switch on "Shareable link".';

// A deliberately small e-mail check: the service owns delivery; this catches typos.
const emailFormat = z.email();

export type CreateVerificationSchema = z.ZodType<CreateVerificationRequest, CreateVerificationFormValues>;

export type CreateVerificationSchemaOptions = {
  /** The region a phone number typed without its country code belongs to (DEFAULT_PHONE_REGION). */
  defaultPhoneRegion?: CountryCode;
};

const schemas = new Map<string, CreateVerificationSchema>();

/** The form's schema for a team's settings; built once per setting, as the browser and the server both ask for it often. */
export function createVerificationSchemaFor({ defaultPhoneRegion }: CreateVerificationSchemaOptions = {}): CreateVerificationSchema {
  const key = defaultPhoneRegion ?? '';
  let schema = schemas.get(key);
  if (!schema) {
    schema = buildSchema(defaultPhoneRegion);
    schemas.set(key, schema);
  }
  return schema;
}

/** The schema without a default phone region: international numbers only. */
export const createVerificationSchema: CreateVerificationSchema = createVerificationSchemaFor();

function buildSchema(defaultPhoneRegion: CountryCode | undefined): CreateVerificationSchema {
  return (
    z
      .object({
        name: z
          .string()
          .trim()
          .min(1, "Enter the person's full name.")
          .max(NAME_MAX, `The name can be at most ${NAME_MAX} characters.`)
          .regex(/^[^\u0000-\u001f\u007f]*$/, 'The name contains invisible control characters; type it again.'),
        email: z.string().trim().max(EMAIL_MAX, `The e-mail address can be at most ${EMAIL_MAX} characters.`),
        purpose: z.enum(purposeChoices, { error: 'Choose the purpose of the verification.' }),
        customPurpose: z
          .string()
          .trim()
          .max(PURPOSE_MAX, `Keep the purpose under ${PURPOSE_MAX} characters.`)
          .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'The purpose contains invisible control characters; type it again.'),
        language: z.enum(languageCodes, { error: 'Choose English, Français or Nederlands.' }),
        shareableLink: z.boolean(),
        emailNotification: z.boolean(),
        smsNotification: z.boolean(),
        phone: z.string().trim().max(40, 'That is too long for a phone number.'),
      })
      // Cross-field rules run even when another field is invalid, so every problem shows at once.
      .superRefine(
        (values, ctx) => {
          const email = typeof values.email === 'string' ? values.email.trim() : '';
          if (!values.shareableLink && email === '') {
            // With SMS on, the problem is the channel choice: say so at the SMS switch.
            ctx.addIssue(
              values.smsNotification
                ? { code: 'custom', path: ['smsNotification'], message: SMS_NEEDS_EMAIL_OR_LINK }
                : {
                    code: 'custom',
                    path: ['email'],
                    message: 'Enter an e-mail address, or switch on "Shareable link" to send the link yourself.',
                  },
            );
          } else if (email !== '' && !emailFormat.safeParse(email).success) {
            ctx.addIssue({ code: 'custom', path: ['email'], message: 'Enter a valid e-mail address, like name@example.com.' });
          }
          if (values.purpose === OTHER_PURPOSE && (typeof values.customPurpose !== 'string' || values.customPurpose.trim() === '')) {
            ctx.addIssue({ code: 'custom', path: ['customPurpose'], message: 'Describe the purpose of the verification.' });
          }
          if (values.smsNotification) {
            const phone = checkPhoneNumber(typeof values.phone === 'string' ? values.phone : '', defaultPhoneRegion);
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
          const phone = checkPhoneNumber(values.phone, defaultPhoneRegion);
          // Checked above: the transform runs only when every rule passed.
          if ('phone' in phone) body.phonenumber = phone.phone;
        }
        return body;
      })
  );
}
