// Text inputs and selects with one look, including the invalid state set by aria-invalid.
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const controlClasses =
  'block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 ' +
  'placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none ' +
  'aria-invalid:ring-red-500 aria-invalid:focus:ring-red-600 disabled:bg-slate-50 disabled:text-slate-500';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(controlClasses, 'h-10', className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(controlClasses, className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(controlClasses, 'h-10 pr-8', className)} {...props} />;
}
