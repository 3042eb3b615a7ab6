// The shape every administrator's change to one colleague's account shares (disable, enable,
// reset their second factor): the account id from the row's form, a refusal in words when the
// change is not allowed, the staff page refreshed, and one sentence saying what happened.
import 'server-only';
import { revalidatePath } from 'next/cache';
import { formAction } from '@/lib/auth/form-action';
import { userIdSchema } from '@/lib/auth/schemas';
import { textField } from '@/lib/forms/action-input';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { StaffError } from '../staff-accounts';

/** The row's controls show the page's own data again, so no values go back. */
export type StaffChangeState = FormState<NoValues, { status: 'done'; message: string }, 'userId' | 'role'>;

export const UNKNOWN_ACCOUNT = 'That account does not exist.';

export function accountChangeAction(change: (actorId: string, userId: string) => Promise<unknown>, done: string) {
  return formAction({
    permission: 'staff:manage',
    schema: userIdSchema,
    read: (form) => ({ userId: textField(form, 'userId') }),
    values: (): NoValues => ({}),
    invalid: { fieldErrors: {}, message: UNKNOWN_ACCOUNT },
    run: async ({ data, staff, refuse }): Promise<StaffChangeState> => {
      try {
        await change(staff.id, data.userId);
      } catch (error) {
        if (error instanceof StaffError) return refuse({ message: error.message });
        throw error;
      }
      revalidatePath('/staff');
      return { status: 'done', message: done };
    },
  });
}
