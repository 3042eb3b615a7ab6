'use client';
// Resets a colleague's second factor (a lost phone), after a confirmation that says what
// happens. The confirmation is a disclosure, so it works without JavaScript and keeps focus in
// the row; the reset itself is a plain form post.
import { useActionState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Button } from '@/components/ui/button';
import { resetTwoFactorAction, type StaffChangeState } from '@/lib/staff/accounts/actions';

const idle: StaffChangeState = { status: 'idle', values: {} };

export function ResetTwoFactorButton({ userId, name }: { userId: string; name: string }) {
  const t = useClientTranslations('staff.row');
  const [state, reset, resetting] = useActionState(resetTwoFactorAction, idle);
  if (state.status === 'done') {
    return (
      <p role="status" className="text-sm text-emerald-700">
        {state.message}
      </p>
    );
  }
  return (
    <details className="group">
      <summary className="cursor-pointer list-none rounded-md px-2.5 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 group-open:bg-slate-50">
        <span aria-hidden="true">{t('resetTwoFactor')}</span>
        <span className="sr-only">{t('resetTwoFactorOf', { name })}</span>
      </summary>
      <form action={reset} className="mt-2 max-w-xs space-y-2 rounded-md bg-white p-3 text-sm shadow-sm ring-1 ring-slate-200">
        <input type="hidden" name="userId" value={userId} />
        <p className="text-slate-700">{t('resetConfirm', { name })}</p>
        <Button type="submit" variant="danger" size="sm" disabled={resetting}>
          <span aria-hidden="true">{t('resetYes')}</span>
          <span className="sr-only">{t('resetYesOf', { name })}</span>
        </Button>
        {state.status === 'failed' || state.status === 'invalid' ? (
          <p role="alert" className="text-red-700">
            {state.message}
          </p>
        ) : null}
      </form>
    </details>
  );
}
