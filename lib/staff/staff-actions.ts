'use server';
// Staff management actions (administrators only).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { authorizedAction, DENIAL_MESSAGES } from '@/lib/auth/guards';
import { changeRoleSchema, createStaffSchema, userIdSchema } from '@/lib/auth/schemas';
import { formDataArg, textField } from '@/lib/forms/action-input';
import { changeStaffRole, createStaff, disableStaff, generatePassword, StaffError } from './staff-accounts';

export type CreateStaffState = {
  status: 'idle' | 'failed' | 'created';
  values: { name: string; email: string; role: string };
  message?: string;
  fieldErrors?: Record<string, string[] | undefined>;
  /** Shown once to the administrator, to pass on to the new colleague. */
  created?: { email: string; password: string };
};

export type StaffChangeState = { status: 'idle' | 'failed' | 'done'; message?: string };

// Text only: String() of a file made "[object File]", which passed as a name.
const typedValuesOf = (formData: unknown) => {
  const form = formDataArg(formData);
  return { name: textField(form, 'name'), email: textField(form, 'email'), role: textField(form, 'role') };
};

/** What the form gets back to show again: cut to the fields' sizes (validation sees it all). */
const valuesOf = (formData: unknown) => {
  const typed = typedValuesOf(formData);
  return { name: typed.name.slice(0, 200), email: typed.email.slice(0, 254), role: typed.role.slice(0, 20) };
};

export const createStaffAction = authorizedAction(
  'staff:manage',
  async (staff, _previous: CreateStaffState, formData: FormData): Promise<CreateStaffState> => {
    const values = valuesOf(formData);
    const parsed = createStaffSchema.safeParse(typedValuesOf(formData));
    if (!parsed.success) return { status: 'failed', values, fieldErrors: z.flattenError(parsed.error).fieldErrors };
    const password = generatePassword();
    try {
      await createStaff(staff.id, { ...parsed.data, password });
    } catch (error) {
      if (error instanceof StaffError) {
        return {
          status: 'failed',
          values,
          fieldErrors: error.field ? { [error.field]: [error.message] } : undefined,
          message: error.field ? undefined : error.message,
        };
      }
      throw error;
    }
    revalidatePath('/staff');
    return { status: 'created', values: { name: '', email: '', role: 'viewer' }, created: { email: parsed.data.email, password } };
  },
  (denial, _previous, formData): CreateStaffState => ({
    status: 'failed',
    values: valuesOf(formData),
    message: DENIAL_MESSAGES[denial].message,
  }),
);

export const changeRoleAction = authorizedAction(
  'staff:manage',
  async (staff, _previous: StaffChangeState, formData: FormData): Promise<StaffChangeState> => {
    const form = formDataArg(formData);
    const parsed = changeRoleSchema.safeParse({ userId: textField(form, 'userId'), role: textField(form, 'role') });
    if (!parsed.success) {
      const unknownAccount = parsed.error.issues.some((issue) => issue.path[0] === 'userId');
      return { status: 'failed', message: unknownAccount ? 'That account does not exist.' : 'Choose one of the roles.' };
    }
    try {
      await changeStaffRole(staff.id, parsed.data.userId, parsed.data.role);
    } catch (error) {
      if (error instanceof StaffError) return { status: 'failed', message: error.message };
      throw error;
    }
    revalidatePath('/staff');
    return { status: 'done', message: 'Role changed.' };
  },
  (denial): StaffChangeState => ({ status: 'failed', message: DENIAL_MESSAGES[denial].message }),
);

export const disableStaffAction = authorizedAction(
  'staff:manage',
  async (staff, _previous: StaffChangeState, formData: FormData): Promise<StaffChangeState> => {
    const parsed = userIdSchema.safeParse({ userId: textField(formDataArg(formData), 'userId') });
    if (!parsed.success) return { status: 'failed', message: 'That account does not exist.' };
    try {
      await disableStaff(staff.id, parsed.data.userId);
    } catch (error) {
      if (error instanceof StaffError) return { status: 'failed', message: error.message };
      throw error;
    }
    revalidatePath('/staff');
    return { status: 'done', message: 'Account disabled; its sessions have ended.' };
  },
  (denial): StaffChangeState => ({ status: 'failed', message: DENIAL_MESSAGES[denial].message }),
);
