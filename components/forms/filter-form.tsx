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
export function FilterField({ id, label, className, children }: { id: string; label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      {children}
    </div>
  );
}
