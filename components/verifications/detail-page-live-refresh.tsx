'use client';
// Keeps the server-rendered parts of a detail page current — the history, the name review's
// decision, the follow-up links — when the live stream announces a change for this request (or a
// resync): the page's server components render again. One per page: each refresh re-reads the
// record. A router refresh keeps client state, so a half-typed form on the page keeps its text.
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { onAnnouncedChange } from '@/lib/live/protocol';

export function DetailPageLiveRefresh({ verificationId }: { verificationId: string }) {
  const router = useRouter();
  useEffect(
    () =>
      onAnnouncedChange((changedId) => {
        if (changedId === null || changedId === verificationId) router.refresh();
      }),
    [router, verificationId],
  );
  return null;
}
