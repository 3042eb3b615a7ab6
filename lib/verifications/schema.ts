// The create-verification form's schema, shared by the browser (instant validation) and the
// server action (which validates again: never trust the client). It speaks the staff's terms
// (a purpose picked from a list, a phone typed with spaces) and its output is the exact body
// of the service's POST /v1/verifications/new. No server imports here: it ships to the browser.
import { z } from 'zod';
import type { CreateVerificationRequest } from '@/lib/verification-service/schemas';
import { type CreateVerificationFormValues, EMAIL_MAX, NAME_MAX, OTHER_PURPOSE, PURPOSE_MAX } from './form-values';
import { LANGUAGES, PREDEFINED_PURPOSES } from './labels';

export type { CreateVerificationFieldErrors, CreateVerificationFormValues } from './form-values';
export { EMAIL_MAX, emptyCreateVerificationForm, formValuesFromFormData, NAME_MAX, OTHER_PURPOSE, PURPOSE_MAX } from './form-values';

const purposeChoices: [string, ...string[]] = [OTHER_PURPOSE, ...PREDEFINED_PURPOSES.map((p) => p.value)];
const languageCodes = LANGUAGES.map((l) => l.value) as [string, ...string[]];

const E164 = /^\+[1-9]\d{1,14}$/;

/**
 * Turns what people type ("+32 470 12 34 56", "0032 470-12-34-56", "+44 (0)20 7946 0958")
 * into E.164. Anything that is still not E.164 afterwards is left for the check to refuse.
 */
export function normalizePhone(input: string): string {
  // "+44 (0)20 …": the bracketed trunk zero is dialled only inside the country, never after +44.
  let phone = input
    .trim()
    .replace(/\(0\)/g, '')
    .replace(/[\s\-.()/\u00a0]/g, '');
  if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
  return phone;
}

export function isE164(phone: string): boolean {
  return E164.test(phone);
}

// A deliberately small e-mail check: the service owns delivery; this catches typos.
const emailFormat = z.email();

export const createVerificationSchema: z.ZodType<CreateVerificationRequest, CreateVerificationFormValues> = z
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
        ctx.addIssue({
          code: 'custom',
          path: ['email'],
          message: 'Enter an e-mail address, or switch on "Shareable link" to send the link yourself.',
        });
      } else if (email !== '' && !emailFormat.safeParse(email).success) {
        ctx.addIssue({ code: 'custom', path: ['email'], message: 'Enter a valid e-mail address, like name@example.com.' });
      }
      if (values.purpose === OTHER_PURPOSE && (typeof values.customPurpose !== 'string' || values.customPurpose.trim() === '')) {
        ctx.addIssue({ code: 'custom', path: ['customPurpose'], message: 'Describe the purpose of the verification.' });
      }
      if (values.smsNotification) {
        const phone = typeof values.phone === 'string' ? normalizePhone(values.phone) : '';
        if (phone === '') {
          ctx.addIssue({ code: 'custom', path: ['phone'], message: 'Enter a mobile number to send the SMS to.' });
        } else if (!isE164(phone)) {
          ctx.addIssue({
            code: 'custom',
            path: ['phone'],
            message: 'Enter the number in international format: + and country code, e.g. +32 470 12 34 56.',
          });
        }
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
    if (values.smsNotification) body.phonenumber = normalizePhone(values.phone);
    return body;
  });
