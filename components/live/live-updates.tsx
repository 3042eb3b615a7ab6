'use client';
// Keeps open pages current: one EventSource per tab on the dashboard's status stream. A change
// for id X is announced on `window` (the detail page's React Query cache refetches X through the
// BFF route; React Query is loaded only on the page that uses it), and pages whose server-rendered content shows statuses are refreshed, coalesced so a burst of
// events costs one refresh. Shows a small indicator of whether updates are flowing, in words
// from 'shell.live' (handed down by the dashboard's layout).
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { announceChange, LIVE_EVENTS_PATH, parseVerificationChange, RESYNC_EVENT, VERIFICATION_EVENT } from '@/lib/live/protocol';
import { cn } from '@/lib/utils';

/** Events within this window after the first one share one router.refresh(). */
const REFRESH_COALESCE_MS = 400;
/** After the browser gives up (a non-200 answer, e.g. 401 or a proxy's 502), we retry ourselves. */
const REOPEN_MIN_MS = 5_000;
const REOPEN_MAX_MS = 60_000;

type Connection = 'connecting' | 'live' | 'offline';

/**
 * Whether a change to `verificationId` alters what the server rendered for `pathname`. Only these
 * pages are refreshed: refreshing every page would re-run server components for nothing (and a
 * form page could lose its state), while client components update through React Query anyway.
 */
export function pageShowsChange(pathname: string, verificationId: string | null): boolean {
  if (pathname === '/') return true; // Recent requests
  if (pathname === '/queue') return true; // Needs attention: items come, go and are taken
  // The detail page's server-rendered parts (whether the link can still be copied, the history,
  // the name review's decision, the follow-up links) change with the request. This refresh is the
  // only one a detail page makes: a burst of events costs one render, not one each.
  if (verificationId !== null) {
    // Compared both ways: whether the pathname arrives percent-encoded is not something to rely on.
    return pathname === `/verifications/${encodeURIComponent(verificationId)}` || pathname === `/verifications/${verificationId}`;
  }
  return pathname.startsWith('/verifications/') && pathname !== '/verifications/new';
}

export function LiveUpdates({ initialEventId }: { initialEventId: number }) {
  const t = useClientTranslations('shell.live');
  const router = useRouter();
  const pathname = usePathname();
  const [connection, setConnection] = useState<Connection>('connecting');

  // Read through refs so the connection is made once per tab, not again on every navigation or
  // on the refresh this component itself triggers (which re-renders the layout with a new prop).
  const pathnameRef = useRef(pathname);
  const routerRef = useRef(router);
  const firstEventIdRef = useRef(initialEventId);
  useEffect(() => {
    pathnameRef.current = pathname;
    routerRef.current = router;
  }, [pathname, router]);

  useEffect(() => {
    let source: EventSource | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;
    let reopenDelay = REOPEN_MIN_MS;
    // The layout rendered the page as of this event id; asking the stream for anything newer
    // closes the gap between that render and the connection.
    let lastSeen = String(firstEventIdRef.current);

    const refreshSoon = () => {
      if (refreshTimer !== undefined) return;
      refreshTimer = setTimeout(() => {
        refreshTimer = undefined;
        routerRef.current.refresh();
      }, REFRESH_COALESCE_MS);
    };

    const open = () => {
      const current = new EventSource(`${LIVE_EVENTS_PATH}?lastEventId=${encodeURIComponent(lastSeen)}`);
      source = current;
      current.onopen = () => {
        setConnection('live');
        reopenDelay = REOPEN_MIN_MS;
      };
      current.addEventListener(VERIFICATION_EVENT, (event) => {
        if (event.lastEventId) lastSeen = event.lastEventId;
        const change = parseVerificationChange(event.data);
        if (!change) return;
        announceChange(change.verificationId);
        if (pageShowsChange(pathnameRef.current, change.verificationId)) refreshSoon();
      });
      current.addEventListener(RESYNC_EVENT, (event) => {
        if (event.lastEventId) lastSeen = event.lastEventId;
        // Changes were missed and cannot be named: everything shown may be out of date.
        announceChange(null);
        if (pageShowsChange(pathnameRef.current, null)) refreshSoon();
      });
      current.onerror = () => {
        if (current.readyState !== EventSource.CLOSED) {
          // The browser reconnects by itself (sending Last-Event-ID).
          setConnection('connecting');
          return;
        }
        // The browser gave up: the server refused (session ended) or a proxy answered an error.
        setConnection('offline');
        current.close();
        reopenTimer = setTimeout(open, reopenDelay);
        reopenDelay = Math.min(REOPEN_MAX_MS, reopenDelay * 2);
      };
    };

    open();
    return () => {
      source?.close();
      clearTimeout(reopenTimer);
      clearTimeout(refreshTimer);
    };
  }, []);

  const label = connection === 'live' ? t('on') : connection === 'connecting' ? t('connecting') : t('paused');
  return (
    <span
      className="hidden items-center gap-1.5 text-xs text-slate-600 md:inline-flex"
      title={connection === 'offline' ? t('pausedHint') : label}
      data-testid="live-indicator"
      data-state={connection}
    >
      <span
        aria-hidden="true"
        className={cn(
          'size-2 rounded-full',
          connection === 'live' && 'bg-emerald-500',
          connection === 'connecting' && 'bg-amber-400',
          connection === 'offline' && 'bg-slate-400',
        )}
      />
      <span aria-hidden="true">{t(`short.${connection}`)}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}
