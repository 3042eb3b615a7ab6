'use client';
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
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
  const t = useClientTranslations('staff.disable');
  const [state, disable, disabling] = useActionState(disableStaffAction, idle);
  if (state.status === 'done' || alreadyDisabled) {
    return (
      <div className="space-y-4">
        <Alert tone="success" title={t('done', { name })} role="status">
          <p>{t('doneText')}</p>
        </Alert>
        <Link href="/staff" className={buttonClasses('secondary', 'md')}>
          {t('back')}
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
          {t('cancel')}
        </Link>
      }
    />
  );
}
