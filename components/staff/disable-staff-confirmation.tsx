// What disabling a colleague does, in words, and the form that does it: shown in the staff
// page's dialog, and on a page of its own when the browser runs no JavaScript (so the Disable
// button never acts in one click).
import type { ReactNode } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';

export function DisableStaffConfirmation({
  userId,
  name,
  titleId,
  descriptionId,
  action,
  pending,
  problem,
  cancel,
}: {
  userId: string;
  name: string;
  titleId: string;
  descriptionId: string;
  action: (formData: FormData) => void;
  pending: boolean;
  /** Why the last attempt was refused, if it was. */
  problem?: string;
  /** The way back without disabling: a button in the dialog, a link on the page. */
  cancel: ReactNode;
}) {
  const t = useClientTranslations('staff.disable');
  return (
    <div className="space-y-4">
      <h2 id={titleId} className="text-lg font-semibold text-slate-900">
        {t('title', { name })}
      </h2>
      <div id={descriptionId} className="space-y-2 text-sm text-slate-700">
        <p>{t('effect')}</p>
        <p>{t('kept')}</p>
      </div>
      {problem ? (
        <Alert tone="error" title={t('notDisabled')} role="alert">
          <p>{problem}</p>
        </Alert>
      ) : null}
      <form action={action} className="flex flex-wrap justify-end gap-2">
        <input type="hidden" name="userId" value={userId} />
        {cancel}
        <Button type="submit" variant="danger" disabled={pending}>
          {t('confirm', { name })}
        </Button>
      </form>
    </div>
  );
}
