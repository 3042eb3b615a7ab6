// The account page's form schema. The server checks the length and the repetition here, and
// also the password rules (password-policy.ts); its messages come in the reader's language.
// i18n: t = account.passwordErrors
import { z } from 'zod';
import { PASSWORD_MIN } from '@/lib/auth/password-length';
import type { Translate } from '@/lib/i18n/translate';

export function changePasswordSchema(t: Translate) {
  return z
    .object({
      currentPassword: z.string().min(1, t('currentRequired')).max(256, t('tooLong')),
      newPassword: z
        .string()
        .min(PASSWORD_MIN, t('tooShort', { min: PASSWORD_MIN }))
        .max(256, t('atMost')),
      confirmPassword: z.string(),
      endOtherSessions: z.boolean(),
    })
    .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: t('differ') })
    .refine((v) => v.newPassword !== v.currentPassword || v.currentPassword === '', {
      path: ['newPassword'],
      message: t('same'),
    });
}

export type ChangePasswordInput = z.infer<ReturnType<typeof changePasswordSchema>>;
