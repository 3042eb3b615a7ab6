// Text inputs and selects with one look, including the invalid state set by aria-invalid.
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export const controlClasses =
  'block rounded-md border-0 bg-white px-3 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 ' +
  'placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600 focus:outline-none ' +
  'aria-invalid:ring-red-500 aria-invalid:focus:ring-red-600 disabled:bg-slate-50 disabled:text-slate-500';

/** Height, width and vertical padding: replaced as a whole by `sizing`, never merged with it. */
const DEFAULT_SIZING = 'h-10 w-full py-2';

type Sizing = { sizing?: string };

export function Input({ className, sizing = DEFAULT_SIZING, ...props }: ComponentProps<'input'> & Sizing) {
  return <input className={cn(controlClasses, sizing, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(controlClasses, 'w-full py-2', className)} {...props} />;
}

export function Select({ className, sizing = DEFAULT_SIZING, ...props }: ComponentProps<'select'> & Sizing) {
  return <select className={cn(controlClasses, sizing, 'pr-8', className)} {...props} />;
}
