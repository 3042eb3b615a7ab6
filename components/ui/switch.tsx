// An on/off switch built on a native checkbox (role="switch"), so it works and posts its
// value with JavaScript disabled, and keyboards and screen readers treat it as a switch.
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { FieldError } from './field';

export function Switch({
  label,
  description,
  className,
  id,
  error,
  ...props
}: Omit<ComponentProps<'input'>, 'type'> & {
  id: string;
  label: ReactNode;
  description?: ReactNode;
  /** A problem with this choice, read with the switch like a field's error. */
  error?: string;
}) {
  const descriptionId = description ? `${id}-description` : undefined;
  const describedBy = [descriptionId, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex items-start gap-3', className)}>
      <span className="relative mt-0.5 inline-flex h-6 w-11 shrink-0">
        <input
          id={id}
          type="checkbox"
          // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox exposes its checked state; aria-checked would only duplicate it.
          role="switch"
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          className="peer absolute inset-0 z-10 h-full w-full cursor-pointer appearance-none rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed"
          {...props}
        />
        <span
          aria-hidden="true"
          className="absolute inset-0 rounded-full bg-slate-300 transition-colors peer-checked:bg-indigo-600 peer-disabled:opacity-50"
        />
        <span
          aria-hidden="true"
          className="absolute top-0.5 left-0.5 h-5 w-5 rounded-full bg-white shadow transition-transform peer-checked:translate-x-5"
        />
      </span>
      <div className="text-sm">
        <label htmlFor={id} className="font-medium text-slate-900">
          {label}
        </label>
        {description ? (
          <span id={descriptionId} className="block text-slate-600">
            {description}
          </span>
        ) : null}
        <FieldError id={`${id}-error`} message={error} />
      </div>
    </div>
  );
}
