// The account page's form schema, shared by the browser and the server. The browser checks the
// length and the repetition; the server also checks the password rules (password-policy.ts).
import { z } from 'zod';
import { PASSWORD_MIN } from '@/lib/auth/password-length';

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Enter your current password.').max(256, 'That password is too long.'),
    newPassword: z.string().min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters.`).max(256, 'Use at most 256 characters.'),
    confirmPassword: z.string(),
    endOtherSessions: z.boolean(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'The two new passwords differ.' })
  .refine((v) => v.newPassword !== v.currentPassword || v.currentPassword === '', {
    path: ['newPassword'],
    message: 'Choose a password different from the current one.',
  });

export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
