'use client';
import { useRouter } from 'next/navigation';
import { startTransition, useEffect, useState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { DatabaseUnavailable } from '@/components/platform/database-unavailable';
import { buttonClasses } from '@/components/ui/button';
// The dashboard's boundary for a page that failed unexpectedly. In production the browser gets
// no detail of a server error (only a digest), so it asks the readiness probe whether the
// database is reachable (only that: the question must cost the service nothing): if not, the page says "Database unavailable" rather than something
// vaguer. The probe is public and answers only ok/failed.
//
// Its words: Next renders a segment's error boundary inside that segment's layout, so the
// catalogs handed down above it reach it like any client component ('shell.error' from the root
// layout, 'shell.databaseUnavailable' from the dashboard's). A boundary takes no props from the
// server, and next-intl's client runtime is not shipped, so this is the way in.
import { Link } from '@/components/ui/link';

export default function DashboardError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useClientTranslations('shell.error');
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
      <h1 className="text-2xl font-semibold text-slate-900">{t('title')}</h1>
      <p className="text-slate-700">{t('explanation')}</p>
      <div className="flex gap-3">
        <button type="button" className={buttonClasses('primary')} onClick={retry}>
          {t('retry')}
        </button>
        <Link href="/" className={buttonClasses('secondary')}>
          {t('backToRequests')}
        </Link>
      </div>
    </div>
  );
}
