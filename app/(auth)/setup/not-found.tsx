// /setup once the first administrator exists: the link that led here was used (or superseded by
// the setup that happened), so the person is sent to sign in rather than left at "Page not found".

import { Alert } from '@/components/ui/alert';
import { buttonClasses } from '@/components/ui/button';
import { Link } from '@/components/ui/link';

export default function SetupDone() {
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold text-slate-900">Setup is done</h1>
      <Alert tone="info" title="This setup link has already been used — sign in." role="status">
        <p>The first administrator exists. Sign in with your account; an administrator creates the accounts of the others.</p>
      </Alert>
      <Link href="/sign-in" className={buttonClasses('primary')}>
        Sign in
      </Link>
    </div>
  );
}
