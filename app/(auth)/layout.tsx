// Layout of the pages used before signing in: a centred card under the product's name.

import type { ReactNode } from 'react';
import { ShieldCheck } from '@/components/ui/icons';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-4 py-12">
      <div className="mb-6 flex items-center gap-2 text-lg font-semibold text-slate-900">
        <ShieldCheck aria-hidden="true" className="size-7 text-indigo-600" />
        Verification Desk
      </div>
      <div className="w-full max-w-md rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">{children}</div>
    </main>
  );
}
