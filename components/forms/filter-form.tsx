// A list's filters (the register, the audit trail): a plain GET form and a plain link to clear
// them, so they work before (or without) JavaScript and every filtered list has a URL that can
// be bookmarked or shared.

import type { ReactNode } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { cn } from '@/lib/utils';

export function FilterForm({
  action,
  clearHref,
  submitLabel,
  clearLabel,
  searchLabel,
  className,
  actionsClassName = 'flex flex-wrap gap-2',
  children,
}: {
  /** Where the form goes: the list's own page (the current one when left out). */
  action?: string;
  /** The list without filters. */
  clearHref: string;
  submitLabel: string;
  clearLabel: string;
  /** Names the form as a search landmark, when it is the page's main way to search. */
  searchLabel?: string;
  /** The layout of the fields and the buttons. */
  className?: string;
  actionsClassName?: string;
  children: ReactNode;
}) {
  return (
    <form
      method="get"
      action={action}
      role={searchLabel ? 'search' : undefined}
      aria-label={searchLabel}
      className={cn('rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200', className)}
    >
      {children}
      <div className={actionsClassName}>
        <button type="submit" className={buttonClasses('primary')}>
          {submitLabel}
        </button>
        <Link href={clearHref} className={buttonClasses('ghost')}>
          {clearLabel}
        </Link>
      </div>
    </form>
  );
}

/** One filter: its label above its control. */
export function FilterField({
  id,
  label,
  clipLabel = false,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  /**
   * For a label that can change after the page is shown, such as one naming the display zone,
   * which the browser's report replaces on a first visit (components/ui/time-zone.tsx): the label
   * then keeps to its control's width on one line, cut with an ellipsis (whole in its title and
   * its accessible name), so that the new words cannot widen the field, wrap the row of filters
   * and push the list below it down the page.
   */
  clipLabel?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <label
        htmlFor={id}
        // w-0 keeps the label out of the field's intrinsic width; min-w-full then gives it the control's.
        className={cn('block text-sm font-medium text-slate-900', clipLabel && 'w-0 min-w-full truncate')}
        title={clipLabel && typeof label === 'string' ? label : undefined}
      >
        {label}
      </label>
      {children}
    </div>
  );
}
