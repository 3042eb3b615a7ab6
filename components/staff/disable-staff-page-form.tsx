'use client';
import { useActionState } from 'react';
import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
// The confirmation page's form (app/(dashboard)/staff/[id]/disable): the dialog's words and
// form, and once done, what happened and the way back to the staff page.
import { Link } from '@/components/ui/link';
import { refusalOf } from '@/lib/forms/form-state';
import { disableStaffAction, type StaffChangeState } from '@/lib/staff/accounts/actions';
import { DisableStaffConfirmation } from './disable-staff-confirmation';

const idle: StaffChangeState = { status: 'idle', values: {} };

export function DisableStaffPageForm({ userId, name, alreadyDisabled }: { userId: string; name: string; alreadyDisabled: boolean }) {
  const [state, disable, disabling] = useActionState(disableStaffAction, idle);
  if (state.status === 'done' || alreadyDisabled) {
    return (
      <div className="space-y-4">
        <Alert tone="success" title={`${name} is disabled`} role="status">
          <p>Their sessions have ended and they can no longer sign in.</p>
        </Alert>
        <Link href="/staff" className={buttonClasses('secondary', 'md')}>
          Back to staff
        </Link>
      </div>
    );
  }
  return (
    <DisableStaffConfirmation
      userId={userId}
      name={name}
      titleId="disable-title"
      descriptionId="disable-description"
      action={disable}
      pending={disabling}
      problem={refusalOf(state)?.message}
      cancel={
        <Link href="/staff" className={buttonClasses('secondary', 'md')}>
          Cancel
        </Link>
      }
    />
  );
}
