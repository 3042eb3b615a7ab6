// A boxed message: a problem, a warning or a success, with a title and the details.

import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck, Info, TriangleAlert } from '@/components/ui/icons';
import { cn } from '@/lib/utils';

const tones = {
  error: { box: 'bg-red-50 ring-red-200 text-red-900', icon: CircleAlert, iconColor: 'text-red-600' },
  warning: { box: 'bg-amber-50 ring-amber-200 text-amber-950', icon: TriangleAlert, iconColor: 'text-amber-600' },
  success: { box: 'bg-emerald-50 ring-emerald-200 text-emerald-950', icon: CircleCheck, iconColor: 'text-emerald-600' },
  info: { box: 'bg-sky-50 ring-sky-200 text-sky-950', icon: Info, iconColor: 'text-sky-600' },
} as const;

export function Alert({
  tone,
  title,
  children,
  role,
  className,
  id,
}: {
  tone: keyof typeof tones;
  title: ReactNode;
  children?: ReactNode;
  role?: 'alert' | 'status';
  className?: string;
  id?: string;
}) {
  const { box, icon: Icon, iconColor } = tones[tone];
  return (
    <div id={id} role={role} className={cn('flex gap-3 rounded-md p-4 text-sm ring-1 ring-inset', box, className)}>
      <Icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', iconColor)} />
      <div className="min-w-0 space-y-1">
        <p className="font-semibold">{title}</p>
        {children ? <div className="space-y-2">{children}</div> : null}
      </div>
    </div>
  );
}
