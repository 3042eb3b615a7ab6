// Schemas of the sign-in, setup and staff forms, shared by the browser and the server.
import '@/lib/platform/zod-jitless';
import { z } from 'zod';
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

const email = emailOf('your');

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

export const signInSchema = z.object({
  email,
  password: z.string().min(1, 'Enter your password.').max(256, 'That password is too long.'),
});

export const setupSchema = z
  .object({ name, email, password: newPassword, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], message: 'The two passwords differ.' });

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
