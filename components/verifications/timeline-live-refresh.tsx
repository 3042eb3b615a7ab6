'use client';
// Keeps a server-rendered part of the detail page (the history) current: when the live stream
// announces a change for this request (or a resync), the page's server components render again.
// A router refresh keeps client state, so a half-typed form beside it keeps its text.
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { onAnnouncedChange } from '@/lib/live/protocol';

export function TimelineLiveRefresh({ verificationId }: { verificationId: string }) {
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
