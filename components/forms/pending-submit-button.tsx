// A form's submit button while its post is pending: a spinner in place of its icon, the pending
// label if it has one, and disabled so the form is not sent twice (`disabled` says when, for a
// form that must also be disabled for another reason).
import type { ComponentProps, ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Loader2 } from '@/components/ui/icons';

export function PendingSubmitButton({
  pending,
  pendingLabel,
  icon = null,
  disabled = pending,
  children,
  ...props
}: Omit<ComponentProps<typeof Button>, 'type'> & {
  pending: boolean;
  /** What the button says while pending; its label otherwise. */
  pendingLabel?: ReactNode;
  /** Shown before the label when not pending. */
  icon?: ReactNode;
}) {
  return (
    <Button type="submit" disabled={disabled} {...props}>
      {pending ? <Loader2 aria-hidden="true" className="size-4 animate-spin" /> : icon}
      {pending && pendingLabel !== undefined ? pendingLabel : children}
    </Button>
  );
}
