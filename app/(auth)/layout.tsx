// Layout of the pages used before signing in: a centred card under the product's name, and the
// language switcher in the top-right corner (signed out, it keeps the choice in a cookie).

import type { ReactNode } from 'react';
import { LanguageSwitcher } from '@/components/i18n/language-switcher';
import { ShieldCheck } from '@/components/ui/icons';

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <div className="flex justify-end px-4 pt-4 sm:px-6">
        <LanguageSwitcher />
      </div>
      <main className="flex flex-1 flex-col items-center justify-center px-4 pt-4 pb-12">
        <div className="mb-6 flex items-center gap-2 text-lg font-semibold text-slate-900">
          <ShieldCheck aria-hidden="true" className="size-7 text-indigo-600" />
          Verification Desk
        </div>
        <div className="w-full max-w-md rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">{children}</div>
      </main>
    </div>
  );
}
