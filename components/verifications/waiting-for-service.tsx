// What the detail page shows while the verification service has not answered yet: the page's
// frame is already there, and this says what it is waiting for and how long it will wait at most,
// so a slow service reads as "busy", not as a dashboard that froze.

import { useTranslations } from 'next-intl';
import { Card, CardBody } from '@/components/ui/card';
import { Loader2 } from '@/components/ui/icons';

export function WaitingForService({ id, giveUpAfterSeconds }: { id: string; giveUpAfterSeconds: number }) {
  const t = useTranslations('detail.waiting');
  return (
    <div className="space-y-4" aria-busy="true">
      <div className="min-w-0 space-y-1">
        <h1 className="text-2xl font-semibold text-slate-900">{t('heading')}</h1>
        <p className="font-mono text-xs break-all text-slate-500">
          <span className="sr-only">{t('idLabel')} </span>
          {id}
        </p>
      </div>
      <Card>
        <CardBody className="flex gap-3 text-sm">
          <Loader2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 animate-spin text-slate-500 motion-reduce:animate-none" />
          {/* A status region: screen readers announce it without moving focus. */}
          <div role="status" aria-live="polite" data-testid="waiting-for-service" className="space-y-1">
            <p className="font-medium text-slate-900">{t('title')}</p>
            <p className="text-slate-600">{t('explanation', { seconds: giveUpAfterSeconds })}</p>
          </div>
        </CardBody>
      </Card>
    </div>
  );
}
