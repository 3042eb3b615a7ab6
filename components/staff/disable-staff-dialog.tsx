'use client';
// The Disable button of a staff row and its confirmation, in a native modal <dialog>: the
// browser keeps focus inside it, Escape cancels, and focus goes back to the button on close.
// Cancel has the focus when it opens, so an Enter too many does not disable anyone. Before
// JavaScript runs (or without it), the button is a link to a confirmation page instead.
import { useActionState, useEffect, useId, useRef } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Button, buttonClasses } from '@/components/ui/button';
import { refusalOf } from '@/lib/forms/form-state';
import { disableStaffAction, type StaffChangeState } from '@/lib/staff/accounts/actions';
import { DisableStaffConfirmation } from './disable-staff-confirmation';

const idle: StaffChangeState = { status: 'idle', values: {} };

export function DisableStaffDialog({ userId, name }: { userId: string; name: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLAnchorElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const t = useClientTranslations('staff.row');
  const [state, disable, disabling] = useActionState(disableStaffAction, idle);
  const ids = useId();

  // Done: the row shows the account as disabled (the page is revalidated); the dialog goes.
  useEffect(() => {
    if (state.status === 'done') dialog.current?.close();
  }, [state]);

  return (
    <>
      <a
        ref={trigger}
        href={`/staff/${encodeURIComponent(userId)}/disable`}
        aria-haspopup="dialog"
        className={buttonClasses('danger', 'sm')}
        onClick={(event) => {
          event.preventDefault();
          dialog.current?.showModal();
          // The safe answer first (React's autoFocus would not set the attribute the dialog reads).
          cancel.current?.focus();
        }}
      >
        <span aria-hidden="true">{t('disable')}</span>
        <span className="sr-only">{t('disableName', { name })}</span>
      </a>
      <dialog
        ref={dialog}
        aria-labelledby={`${ids}-title`}
        aria-describedby={`${ids}-description`}
        onClose={() => trigger.current?.focus()}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg bg-white p-6 text-left shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/50"
      >
        <DisableStaffConfirmation
          userId={userId}
          name={name}
          titleId={`${ids}-title`}
          descriptionId={`${ids}-description`}
          action={disable}
          pending={disabling}
          problem={refusalOf(state)?.message}
          cancel={
            <Button ref={cancel} type="button" variant="secondary" onClick={() => dialog.current?.close()}>
              {t('cancel')}
            </Button>
          }
        />
      </dialog>
    </>
  );
}
