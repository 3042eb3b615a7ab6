'use client';
import { useRouter } from 'next/navigation';
import { startTransition, useEffect, useState } from 'react';
import { DatabaseUnavailable } from '@/components/platform/database-unavailable';
import { buttonClasses } from '@/components/ui/button';
// The dashboard's boundary for a page that failed unexpectedly. In production the browser gets
// no detail of a server error (only a digest), so it asks the readiness probe whether the
// database is reachable (only that: the question must cost the service nothing): if not, the page says "Database unavailable" rather than something
// vaguer. The probe is public and answers only ok/failed.
import { Link } from '@/components/ui/link';

export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const router = useRouter();
  const [databaseDown, setDatabaseDown] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/api/ready?check=database', { cache: 'no-store', signal: controller.signal })
      .then((response) => response.json())
      .then((body: { checks?: { database?: string } }) => setDatabaseDown(body.checks?.database === 'failed'))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  // Render the server's part again too: reset alone would retry only on the client.
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });

  if (databaseDown) return <DatabaseUnavailable onRetry={retry} />;
  return (
    <div className="mx-auto max-w-2xl space-y-4" data-problem="unexpected">
      <h1 className="text-2xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="text-slate-700">The page could not be shown. Try again in a moment; if it keeps happening, tell your administrator.</p>
      <div className="flex gap-3">
        <button type="button" className={buttonClasses('primary')} onClick={retry}>
          Try again
        </button>
        <Link href="/" className={buttonClasses('secondary')}>
          Back to requests
        </Link>
      </div>
    </div>
  );
}
