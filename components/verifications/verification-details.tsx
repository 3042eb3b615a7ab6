'use client';
// The record of one verification, labelled for people. It starts from the server-rendered
// record and stays current through React Query: refetched when the live stream reports a change
// for this id (components/live announces it on window), and when the tab regains focus.
import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import type { VerificationRecord } from '@/lib/verification-service/schemas';
import { onAnnouncedChange } from '@/lib/live/protocol';
import { getBrowserQueryClient } from '@/lib/query-client';
import { fetchVerification, VerificationFetchError, verificationQueryKey } from '@/lib/verifications/fetch-verification';
import { isPredefinedPurpose, methodLabel, purposeLabel } from '@/lib/verifications/labels';
import { isPast, relativeTo } from '@/lib/verifications/time';
import { cn } from '@/lib/utils';
import { StatusBadge } from './status-badge';

function Row({ label, children, muted }: { label: string; children: ReactNode; muted?: boolean }) {
  return (
    <div className="grid gap-1 px-5 py-3.5 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className={cn('text-sm break-words sm:col-span-2', muted ? 'text-slate-500' : 'text-slate-900')}>{children}</dd>
    </div>
  );
}

function Deadline({ iso, now, future, past }: { iso: string; now: number; future: string; past: string }) {
  return (
    <span className="space-x-1">
      <LocalTime iso={iso} />
      <span className="text-slate-600" suppressHydrationWarning>
        ({isPast(iso, now) ? past : future} {relativeTo(iso, now)})
      </span>
    </span>
  );
}

const TERMINAL = new Set(['completed', 'failed', 'expired']);

type DetailsProps = { id: string; initialRecord: VerificationRecord };

/** The detail page is the one place that needs React Query, so its provider lives here. */
export function VerificationDetails(props: DetailsProps) {
  return (
    <QueryClientProvider client={getBrowserQueryClient()}>
      <LiveVerificationDetails {...props} />
    </QueryClientProvider>
  );
}

function LiveVerificationDetails({ id, initialRecord }: DetailsProps) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: verificationQueryKey(id),
    queryFn: ({ signal }) => fetchVerification(id, signal),
    // Used only when nothing is cached for this id; the effect below covers the other case.
    initialData: initialRecord,
  });

  // A fresh server render (coming back to this page, or a router refresh) is newer than what a
  // previous visit left in the cache, which initialData would not replace. A finished status is
  // never replaced by a pending one, should a slower render arrive after a refetch.
  useEffect(() => {
    queryClient.setQueryData<VerificationRecord>(verificationQueryKey(id), (cached) =>
      cached && TERMINAL.has(cached.status) && !TERMINAL.has(initialRecord.status) ? cached : initialRecord,
    );
  }, [queryClient, id, initialRecord]);
  // The live stream (components/live) announces changes; one for this id, or a resync, refetches.
  // An invalidation refetches an active query whatever its staleTime.
  useEffect(
    () =>
      onAnnouncedChange((changedId) => {
        if (changedId === null || changedId === id) void queryClient.invalidateQueries({ queryKey: verificationQueryKey(id) });
      }),
    [queryClient, id],
  );

  const record = query.data;
  const now = query.dataUpdatedAt || Date.now();
  const method = methodLabel(record.verification_method);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <h1 className="text-2xl font-semibold break-words text-slate-900">{record.inputted_name}</h1>
          <p className="font-mono text-xs break-all text-slate-500">
            <span className="sr-only">Verification id: </span>
            {id}
          </p>
        </div>
        <div className="flex items-center gap-3">
          <span aria-live="polite" data-testid="status">
            <span className="sr-only">Status: </span>
            <StatusBadge status={record.status} size="lg" />
          </span>
          <Button variant="ghost" size="sm" onClick={() => void query.refetch()} disabled={query.isFetching}>
            <RefreshCw aria-hidden="true" className={cn('size-4', query.isFetching && 'animate-spin')} />
            Refresh
          </Button>
        </div>
      </div>

      {query.isError ? (
        <Alert
          tone="warning"
          title={
            query.error instanceof VerificationFetchError && query.error.status === 404
              ? 'This verification is no longer available'
              : 'Showing the last known state'
          }
          role="status"
        >
          <p>{query.error.message}</p>
        </Alert>
      ) : null}

      <dl className="divide-y divide-slate-100 rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
        <Row label="Status">
          <StatusBadge status={record.status} />
        </Row>
        <Row label="Requested name">{record.inputted_name}</Row>
        <Row label="Identified name" muted={record.identified_name === null}>
          {record.identified_name ?? (record.status === 'pending' ? 'Not yet identified' : 'Not identified')}
        </Row>
        <Row label="Verification method" muted={method === null}>
          {method ?? 'None yet'}
        </Row>
        <Row label="Verified on" muted={record.identified_date === null}>
          {record.identified_date ? <LocalTime iso={record.identified_date} /> : 'Not completed'}
        </Row>
        {record.failed_reason !== null || record.status === 'failed' ? (
          <Row label="Failure reason">{record.failed_reason ?? 'No reason given'}</Row>
        ) : null}
        <Row label="Purpose">
          {purposeLabel(record.purpose)}
          {isPredefinedPurpose(record.purpose) ? null : <span className="ml-1 text-slate-500">(custom)</span>}
        </Row>
        <Row label="Link valid until">
          <Deadline iso={record.access_expires_at} now={now} future="expires" past="expired" />
        </Row>
        <Row label="Data kept until">
          <span className="space-x-1">
            <LocalTime iso={record.kept_until} />
            <span className="text-slate-600" suppressHydrationWarning>
              ({isPast(record.kept_until, now) ? 'due for purging' : `data purged ${relativeTo(record.kept_until, now)}`})
            </span>
          </span>
        </Row>
      </dl>
    </div>
  );
}
