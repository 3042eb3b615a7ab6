'use client';
// The detail page once it must stay current (see verification-details.tsx): React Query holds
// the record, refetches it through the dashboard's read route when the live stream announces a
// change for this id (or a resync), and when the tab regains focus.
import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Alert } from '@/components/ui/alert';
import { getBrowserQueryClient } from '@/components/verifications/query-client';
import { onAnnouncedChange } from '@/lib/live/protocol';
import { TERMINAL_STATUSES } from '@/lib/verification-service/contract/verification-status';
import type { VerificationRecord } from '@/lib/verification-service/schemas';
import { fetchVerification, VerificationFetchError, verificationQueryKey } from '@/lib/verifications/record/fetch-verification';
import { completedNameComparison } from '@/lib/verifications/review/comparison';
import { DetailsView, type LiveDetailsProps } from './verification-details';

export function LiveVerificationDetails(props: LiveDetailsProps) {
  return (
    <QueryClientProvider client={getBrowserQueryClient()}>
      <QueriedDetails {...props} />
    </QueryClientProvider>
  );
}

function QueriedDetails({ id, initialRecord, onRecord, ...naming }: LiveDetailsProps) {
  const t = useClientTranslations('detail.live');
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: verificationQueryKey(id),
    queryFn: ({ signal }) => fetchVerification(id, signal),
    // Used only when nothing is cached for this id. Dated 0 (stale at once): this part mounts
    // because something suggested the record changed, so it fetches straight away.
    initialData: initialRecord,
    initialDataUpdatedAt: 0,
  });

  // A fresh server render (coming back to this page, or a router refresh) is newer than what a
  // previous visit left in the cache, which initialData would not replace. A finished status is
  // never replaced by a pending one, should a slower render arrive after a refetch.
  useEffect(() => {
    queryClient.setQueryData<VerificationRecord>(verificationQueryKey(id), (cached) =>
      cached && TERMINAL_STATUSES.has(cached.status) && !TERMINAL_STATUSES.has(initialRecord.status) ? cached : initialRecord,
    );
  }, [queryClient, id, initialRecord]);

  // A change for this id, or a resync, refetches: an invalidation refetches an active query
  // whatever its staleTime.
  useEffect(
    () =>
      onAnnouncedChange((changedId) => {
        if (changedId === null || changedId === id) void queryClient.invalidateQueries({ queryKey: verificationQueryKey(id) });
      }),
    [queryClient, id],
  );

  // Compared here, in this lazily loaded part, so the name tables stay out of the first load.
  const record = query.data;
  const nameComparison = useMemo(
    () => completedNameComparison(record.status, naming.requestedName ?? record.inputted_name, record.identified_name),
    [record, naming.requestedName],
  );
  // The name review beside this part follows the record shown here.
  useEffect(() => onRecord({ record, nameComparison }), [onRecord, record, nameComparison]);

  // The record already shown stays on screen whatever went wrong; the title says why it is not
  // newer. A 429 (this person's read limit) carries its own message saying how long to wait.
  const status = query.error instanceof VerificationFetchError ? query.error.status : undefined;
  // The read route's refusal comes in words already; the browser's own failures are named here.
  const message =
    query.error instanceof VerificationFetchError && query.error.message === ''
      ? status === 0
        ? t('unreachable')
        : t('notRefreshed')
      : query.error?.message;
  const problem = query.isError ? (
    <Alert tone="warning" title={status === 404 ? t('gone') : status === 429 ? t('paused') : t('lastKnown')} role="status">
      <p>{message}</p>
    </Alert>
  ) : undefined;

  return (
    <DetailsView
      id={id}
      record={record}
      nameComparison={nameComparison}
      now={query.dataUpdatedAt || Date.now()}
      refreshing={query.isFetching}
      onRefresh={() => void query.refetch()}
      problem={problem}
      {...naming}
    />
  );
}
