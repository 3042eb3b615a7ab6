'use server';
// An administrator's reset of a colleague's second factor (lib/auth/two-factor/reset.ts).
import { revalidatePath } from 'next/cache';
import { userIdSchema } from '@/lib/auth/schemas';
import { resetTwoFactor } from '@/lib/auth/two-factor/reset';
import { textField } from '@/lib/forms/action-input';
import { formAction } from '@/lib/forms/form-action';
import type { NoValues } from '@/lib/forms/form-state';
import { StaffError } from './staff-accounts';
import type { StaffChangeState } from './staff-actions';

export const resetTwoFactorAction = formAction({
  permission: 'staff:manage',
  schema: userIdSchema,
  read: (form) => ({ userId: textField(form, 'userId') }),
  values: (): NoValues => ({}),
  invalid: { fieldErrors: {}, message: 'That account does not exist.' },
  run: async ({ data, staff, refuse }): Promise<StaffChangeState> => {
    try {
      await resetTwoFactor(staff.id, data.userId);
    } catch (error) {
      if (error instanceof StaffError) return refuse({ message: error.message });
      throw error;
    }
    revalidatePath('/staff');
    return { status: 'done', message: 'Second factor reset; their sessions have ended. They sign in with their password alone now.' };
  },
});
