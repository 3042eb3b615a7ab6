'use server';
// Staff management actions (administrators only): create, invite, change a role, disable and
// re-enable an account, reset a colleague's second factor.
import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { formAction } from '@/lib/auth/form-action';
import { changeRoleSchema, createStaffSchema } from '@/lib/auth/schemas';
import { resetTwoFactor } from '@/lib/auth/two-factor/reset';
import { isPasswordSignInEnabled } from '@/lib/env';
import { textField } from '@/lib/forms/action-input';
import type { FormState, NoValues } from '@/lib/forms/form-state';
import { inviteStaff } from '../invitations/invitations.server';
import { invitationLink } from '../invitations/link.server';
import { staffRefusal } from '../refusals.server';
import { changeStaffRole, createStaff, disableStaff, enableStaff, StaffError } from '../staff-accounts';
import { accountChangeAction, type StaffChangeState } from './account-change.server';

type StaffFormValues = { name: string; email: string; role: string };

export type CreateStaffState = FormState<
  StaffFormValues,
  {
    status: 'created';
    values: StaffFormValues;
    /**
     * The invitation link, shown once to the administrator to send on to the new colleague; null
     * with PASSWORD_SIGN_IN=off, where the colleague signs in through single sign-on only.
     */
    created: { name: string; email: string; link: string | null; expiresAt: string | null };
  }
>;

export type { StaffChangeState } from './account-change.server';

export const createStaffAction = formAction({
  permission: 'staff:manage',
  schema: createStaffSchema,
  read: (form) => ({ name: textField(form, 'name'), email: textField(form, 'email'), role: textField(form, 'role') }),
  // Cut to the fields' sizes (validation sees it all).
  values: (typed) => ({ name: typed.name.slice(0, 200), email: typed.email.slice(0, 254), role: typed.role.slice(0, 20) }),
  run: async ({ data, staff, refuse }): Promise<CreateStaffState> => {
    let invitation: Awaited<ReturnType<typeof inviteStaff>> | null = null;
    try {
      // A password nobody may sign in with would only be a way around PASSWORD_SIGN_IN=off.
      if (isPasswordSignInEnabled()) invitation = await inviteStaff(staff.id, data);
      else await createStaff(staff.id, data);
    } catch (error) {
      if (error instanceof StaffError) {
        const message = await staffRefusal(error);
        return error.field ? refuse({ fieldErrors: { [error.field]: [message] } }) : refuse({ message });
      }
      throw error;
    }
    revalidatePath('/staff');
    return {
      status: 'created',
      values: { name: '', email: '', role: 'viewer' },
      created: {
        name: data.name,
        email: data.email,
        link: invitation ? invitationLink(invitation.token) : null,
        expiresAt: invitation ? invitation.expiresAt.toISOString() : null,
      },
    };
  },
});

export async function changeRoleAction(previous: StaffChangeState, formData: FormData) {
  const t = await getTranslations('staff');
  return formAction({
    permission: 'staff:manage',
    schema: changeRoleSchema,
    read: (form) => ({ userId: textField(form, 'userId'), role: textField(form, 'role') }),
    values: (): NoValues => ({}),
    // The row has no field to show a message at: one sentence says which part was wrong.
    invalid: (fieldErrors) => ({
      fieldErrors: {},
      message: fieldErrors.userId ? t('refusals.unknownAccount') : t('actions.chooseRole'),
    }),
    run: async ({ data, staff, refuse }): Promise<StaffChangeState> => {
      try {
        await changeStaffRole(staff.id, data.userId, data.role);
      } catch (error) {
        if (error instanceof StaffError) return refuse({ message: await staffRefusal(error) });
        throw error;
      }
      revalidatePath('/staff');
      return { status: 'done', message: t('actions.roleChanged') };
    },
  })(previous, formData);
}

export const disableStaffAction = accountChangeAction(disableStaff, 'disabled');

export const enableStaffAction = accountChangeAction(enableStaff, 'enabled');

// An administrator's reset of a colleague's second factor (lib/auth/two-factor/reset.ts).
export const resetTwoFactorAction = accountChangeAction(resetTwoFactor, 'twoFactorReset');
