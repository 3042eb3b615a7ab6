// Shown (with HTTP 403) when a signed-in staff member opens a page their role does not allow.

import { buttonClasses } from '@/components/ui/button';
import { ShieldAlert } from '@/components/ui/icons';
import { Link } from '@/components/ui/link';

export default function Forbidden() {
  return (
    <div className="mx-auto max-w-xl space-y-4 px-6 py-16">
      <ShieldAlert aria-hidden="true" className="size-8 text-slate-500" />
      <h1 className="text-2xl font-semibold text-slate-900">Not available for your role</h1>
      <p className="text-slate-700">
        Your account does not have permission to open this page. If you need it, ask an administrator to change your role.
      </p>
      <Link href="/" className={buttonClasses('secondary')}>
        Back to requests
      </Link>
    </div>
  );
}
