// What "Page not found" says, wherever it is shown: on its own (app/not-found.tsx), or inside
// the dashboard's layout for signed-in staff (app/(dashboard)/not-found.tsx), which provides the
// page's <main> there.

import { buttonClasses } from '@/components/ui/button';
import { Link } from '@/components/ui/link';

export function PageNotFound() {
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-semibold text-slate-900">Page not found</h1>
      <p className="text-slate-700">There is nothing at this address.</p>
      <Link href="/" className={buttonClasses('secondary')}>
        Back to requests
      </Link>
    </div>
  );
}
