'use client';
// The Enable button of a disabled account's row: the person can sign in again (their old
// sessions stay ended). Works without JavaScript.
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Button } from '@/components/ui/button';
import { refusalOf } from '@/lib/forms/form-state';
import { enableStaffAction, type StaffChangeState } from '@/lib/staff/accounts/actions';

const idle: StaffChangeState = { status: 'idle', values: {} };

export function EnableStaffButton({ userId, name }: { userId: string; name: string }) {
  const t = useClientTranslations('staff.row');
  const [state, enable, enabling] = useActionState(enableStaffAction, idle);
  const problem = refusalOf(state)?.message;
  return (
    <form action={enable} className="flex flex-wrap items-center gap-2">
      <input type="hidden" name="userId" value={userId} />
      <Button type="submit" variant="secondary" size="sm" disabled={enabling}>
        <span aria-hidden="true">{t('enable')}</span>
        <span className="sr-only">{t('enableName', { name })}</span>
      </Button>
      <span role="status" className="text-sm text-red-700">
        {problem ?? ''}
      </span>
    </form>
  );
}
