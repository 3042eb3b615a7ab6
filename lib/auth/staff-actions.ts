'use server';
// Staff management actions (administrators only).
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { authorizedAction, DENIAL_MESSAGES } from './guards';
import { changeRoleSchema, createStaffSchema, userIdSchema } from './schemas';
import { changeStaffRole, createStaff, disableStaff, generatePassword, StaffError } from './staff';

export type CreateStaffState = {
  status: 'idle' | 'failed' | 'created';
  values: { name: string; email: string; role: string };
  message?: string;
  fieldErrors?: Record<string, string[] | undefined>;
  /** Shown once to the administrator, to pass on to the new colleague. */
  created?: { email: string; password: string };
};

export type StaffChangeState = { status: 'idle' | 'failed' | 'done'; message?: string };

const valuesOf = (formData: FormData) => ({
  name: String(formData.get('name') ?? '').slice(0, 200),
  email: String(formData.get('email') ?? '').slice(0, 254),
  role: String(formData.get('role') ?? ''),
});

export const createStaffAction = authorizedAction(
  'staff:manage',
  async (staff, _previous: CreateStaffState, formData: FormData): Promise<CreateStaffState> => {
    const values = valuesOf(formData);
    const parsed = createStaffSchema.safeParse(values);
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
    const parsed = changeRoleSchema.safeParse({ userId: formData.get('userId'), role: formData.get('role') });
    if (!parsed.success) return { status: 'failed', message: 'Choose one of the roles.' };
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
    const parsed = userIdSchema.safeParse({ userId: formData.get('userId') });
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
