// A labelled form field: label, optional hint, the control, and its error, wired together with
// aria-describedby so a screen reader reads the hint and the error with the control.
// Every form that uses it is a client component, so "(optional)" comes from the client catalog
// ('forms.field', handed down by the root layout to every page).
import type { ReactNode } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { cn } from '@/lib/utils';

export function fieldDescribedBy(id: string, { hint, error }: { hint?: boolean; error?: boolean }): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function Field({
  id,
  label,
  hint,
  error,
  optional,
  className,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  optional?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const t = useClientTranslations('forms.field');
  return (
    <div className={cn('space-y-1.5', className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
        {optional ? <span className="ml-1 font-normal text-slate-500">{t('optional')}</span> : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function FieldError({ id, message }: { id: string; message?: string }) {
  // The live region stays in the DOM so that an error appearing in it is announced.
  return (
    <p id={id} aria-live="polite" className="text-sm text-red-700 empty:hidden">
      {message ?? ''}
    </p>
  );
}
