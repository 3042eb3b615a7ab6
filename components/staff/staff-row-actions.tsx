'use client';
// Per-account controls on the staff page: change the role, disable the account (after a
// confirmation: disable-staff-dialog.tsx).
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/input';
import { STAFF_ROLES, type StaffRole } from '@/lib/auth/roles';
import { changeRoleAction, type StaffChangeState } from '@/lib/staff/accounts/actions';
import { DisableStaffDialog } from './disable-staff-dialog';
import { ResetTwoFactorButton } from './reset-two-factor-button';

const idle: StaffChangeState = { status: 'idle', values: {} };

const messageOf = (state: StaffChangeState) => (state.status === 'idle' ? undefined : state.message);

export function StaffRowActions({
  userId,
  name,
  role,
  isSelf,
  twoFactorEnabled = false,
}: {
  userId: string;
  name: string;
  role: StaffRole;
  isSelf: boolean;
  twoFactorEnabled?: boolean;
}) {
  const t = useClientTranslations('staff.row');
  // The page hands down common.roles.
  const tCommon = useClientTranslations('common');
  const [roleState, changeRole, changingRole] = useActionState(changeRoleAction, idle);
  const message = messageOf(roleState);
  const failed = roleState.status === 'failed';
  return (
    <div className="flex flex-wrap items-center gap-2">
      <form action={changeRole} className="flex items-center gap-2">
        <input type="hidden" name="userId" value={userId} />
        <label htmlFor={`role-${userId}`} className="sr-only">
          {t('roleOf', { name })}
        </label>
        <Select id={`role-${userId}`} name="role" defaultValue={role} sizing="h-8 w-40 py-1">
          {STAFF_ROLES.map((option) => (
            <option key={option} value={option}>
              {tCommon(`roles.${option}`)}
            </option>
          ))}
        </Select>
        <Button type="submit" variant="secondary" size="sm" disabled={changingRole}>
          <span aria-hidden="true">{t('changeRole')}</span>
          <span className="sr-only">{t('changeRoleOf', { name })}</span>
        </Button>
      </form>
      {isSelf ? null : <DisableStaffDialog userId={userId} name={name} />}
      {twoFactorEnabled && !isSelf ? <ResetTwoFactorButton userId={userId} name={name} /> : null}
      <span role="status" className={failed ? 'text-sm text-red-700' : 'text-sm text-emerald-700'}>
        {message ?? ''}
      </span>
    </div>
  );
}
