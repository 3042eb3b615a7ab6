// Schemas of the two-factor forms, shared by the browser and the server. The sign-in prompt's take
// their messages from a translate function (…In(t)), in the language of the person signing in.
// i18n: t = auth.validation
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';

/** A 6-digit code as an app shows it; spaces (some apps show "123 456") are dropped. */
export const totpCodeSchema = z.object({
  code: z
    .string()
    .max(20, 'Enter the 6-digit code from your authenticator app.')
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.')),
});

/** A backup code as it was shown, "abcde-FGHIJ"; spaces around it and a missing dash are forgiven. */
export const backupCodeSchema = z.object({
  code: z
    .string()
    .max(40, 'Enter one of your backup codes, like abcde-12345.')
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, 'Enter one of your backup codes, like abcde-12345.')
        .transform((value) => (value.includes('-') ? value : `${value.slice(0, 5)}-${value.slice(5)}`)),
    ),
});

/** The current password, asked again before the second factor is set up or turned off. */
export const confirmPasswordSchema = z.object({
  password: z.string().min(1, 'Enter your current password.').max(256, 'That password is too long.'),
});

/**
 * Both steps of enrolment post to one action (one state for the page): `password` asks for a
 * new secret, `code` confirms it. Each step's own fields are checked in the action, once the
 * secret the code step carries is proven to be the server's (enrolment.ts).
 */
export const enrolmentStepSchema = z.object({
  step: z.enum(['password', 'code']),
  password: z.string().max(256, 'That password is too long.'),
  code: z.string().max(20),
  totpURI: z.string().max(1000),
  proof: z.string().max(100),
});

/** The sign-in prompt's codes, as above, with their messages in the reader's language. */
export const totpCodeSchemaIn = (t: Translate) =>
  z.object({
    code: z
      .string()
      .max(20, t('totpCode'))
      .transform((value) => value.replace(/\s+/g, ''))
      .pipe(z.string().regex(/^\d{6}$/, t('totpCode'))),
  });

export const backupCodeSchemaIn = (t: Translate) =>
  z.object({
    code: z
      .string()
      .max(40, t('backupCode'))
      .transform((value) => value.replace(/\s+/g, ''))
      .pipe(
        z
          .string()
          .regex(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, t('backupCode'))
          .transform((value) => (value.includes('-') ? value : `${value.slice(0, 5)}-${value.slice(5)}`)),
      ),
  });
