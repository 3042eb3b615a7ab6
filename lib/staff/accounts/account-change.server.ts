// The shape every administrator's change to one colleague's account shares (disable, enable,
// reset their second factor): the account id from the row's form, a refusal in words when the
// change is not allowed, the staff page refreshed, and one sentence saying what happened.
import 'server-only';
import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { formAction } from '@/lib/auth/form-action';
import { userIdSchema } from '@/lib/auth/schemas';
import { textField } from '@/lib/forms/action-input';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { staffRefusal } from '../refusals.server';
import { StaffError } from '../staff-accounts';

/** The row's controls show the page's own data again, so no values go back. */
export type StaffChangeState = FormState<NoValues, { status: 'done'; message: string }, 'userId' | 'role'>;

/** What each change says once done: a key of staff.actions.done. */
export type AccountChange = 'disabled' | 'enabled' | 'twoFactorReset';

export function accountChangeAction(change: (actorId: string, userId: string) => Promise<unknown>, done: AccountChange) {
  return async (previous: StaffChangeState, formData: FormData) => {
    const t = await getTranslations('staff');
    return formAction({
      permission: 'staff:manage',
      schema: userIdSchema,
      read: (form) => ({ userId: textField(form, 'userId') }),
      values: (): NoValues => ({}),
      invalid: { fieldErrors: {}, message: t('refusals.unknownAccount') },
      run: async ({ data, staff, refuse }): Promise<StaffChangeState> => {
        try {
          await change(staff.id, data.userId);
        } catch (error) {
          if (error instanceof StaffError) return refuse({ message: await staffRefusal(error) });
          throw error;
        }
        revalidatePath('/staff');
        return { status: 'done', message: t(`actions.done.${done}`) };
      },
    })(previous, formData);
  };
}
