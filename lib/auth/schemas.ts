// Schemas of the sign-in, setup and staff forms, shared by the browser and the server. Those of
// the pages before sign-in take their messages from a translate function (…In(t)), so that the
// browser and the server each say them in the reader's language.
// i18n: t = auth.validation
import '@/lib/platform/zod-jitless';
import { z } from 'zod';
import type { Translate } from '@/lib/i18n/translate';
import { PASSWORD_MIN } from './password-length';
import { STAFF_ROLES } from './roles';

// `whose`: the person's own forms say "your", an administrator's forms about a colleague "their".
const emailOf = (whose: 'your' | 'their') =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1, `Enter ${whose} e-mail address.`)
    .max(254, 'That e-mail address is too long.')
    .pipe(z.email('Enter a valid e-mail address, like name@example.com.'));

const newPassword = z.string().min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`).max(256, 'Use at most 256 characters.');

// PostgreSQL cannot store NUL in text (the insert would fail with a 500), and no control character
// belongs in a name shown in lists and the audit trail.
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

const name = z
  .string()
  .trim()
  .min(1, 'Enter a name.')
  .max(100, 'Use at most 100 characters.')
  .regex(NO_CONTROL_CHARACTERS, 'The name contains invisible control characters; type it again.');

// Account ids are opaque text; a NUL in one would fail the lookup query itself.
const userId = z.string().min(1).max(100).regex(NO_CONTROL_CHARACTERS);

export const createStaffSchema = z.object({
  name,
  email: emailOf('their'),
  role: z.enum(STAFF_ROLES, { error: 'Choose a role.' }),
});

export const changeRoleSchema = z.object({
  userId,
  role: z.enum(STAFF_ROLES, { error: 'Choose a role.' }),
});

export const userIdSchema = z.object({ userId });

/** The invitation page: the new colleague's own password, typed twice (the token comes with the form, not through this schema). */
export const acceptInvitationSchema = z
  .object({ password: newPassword, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'The two passwords differ.' });

// The same schemas, in the reader's language (the sign-in page, first-run setup, the invitation page).

const ownEmailIn = (t: Translate) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .min(1, t('emailRequired'))
    .max(254, t('emailTooLong'))
    .pipe(z.email(t('emailInvalid')));

const newPasswordIn = (t: Translate) =>
  z
    .string()
    .min(PASSWORD_MIN, t('passwordTooShort', { min: PASSWORD_MIN }))
    .max(256, t('passwordAtMost'));

const nameIn = (t: Translate) =>
  z.string().trim().min(1, t('nameRequired')).max(100, t('nameTooLong')).regex(NO_CONTROL_CHARACTERS, t('nameControl'));

export const signInSchemaIn = (t: Translate) =>
  z.object({
    email: ownEmailIn(t),
    password: z.string().min(1, t('passwordRequired')).max(256, t('passwordTooLong')),
  });

export const setupSchemaIn = (t: Translate) =>
  z
    .object({ name: nameIn(t), email: ownEmailIn(t), password: newPasswordIn(t), confirmPassword: z.string() })
    .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: t('passwordsDiffer') });

export const acceptInvitationSchemaIn = (t: Translate) =>
  z
    .object({ password: newPasswordIn(t), confirmPassword: z.string() })
    .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: t('passwordsDiffer') });
