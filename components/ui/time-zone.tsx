'use client';
// The zone the dashboard's times are shown in, for client components. The server passes what it
// knows (DISPLAY_TIME_ZONE, or the zone the browser reported last time); without a deployment
// zone, the browser's own applies as soon as it hydrates, and the browser reports it in a cookie
// so the next server render (and the date filters, read on the server) already use it.
import { useRouter } from 'next/navigation';
import { createContext, type ReactNode, useContext, useEffect, useSyncExternalStore } from 'react';
import { canonicalTimeZone } from '@/lib/platform/time-zone-name';
import { FALLBACK_TIME_ZONE, TIME_ZONE_COOKIE } from '@/lib/time/time-zone';

type ZoneSetting = { timeZone: string; fixed: boolean };

const ZoneContext = createContext<ZoneSetting>({ timeZone: FALLBACK_TIME_ZONE, fixed: false });

const subscribe = () => () => {};

// Read once per page load. Each read builds two Intl.DateTimeFormat objects, which is slow on a
// phone, and useSyncExternalStore asks for the snapshot on every render of every LocalTime: a
// register page of a hundred rows spent half its hydration (measured, 4× CPU throttling) here.
let browserZone: string | undefined;

function browserTimeZone(): string {
  browserZone ??= canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? FALLBACK_TIME_ZONE;
  return browserZone;
}

/** The zone to show times in: the server's on its render and hydration, then the browser's. */
export function useDisplayTimeZone(): string {
  const { timeZone, fixed } = useContext(ZoneContext);
  const browser = useSyncExternalStore(
    subscribe,
    () => (fixed ? timeZone : browserTimeZone()),
    () => timeZone,
  );
  return browser;
}

function reportedCookie(): string | undefined {
  const prefix = `${TIME_ZONE_COOKIE}=`;
  return document.cookie
    .split('; ')
    .find((entry) => entry.startsWith(prefix))
    ?.slice(prefix.length);
}

/**
 * Tells the server the browser's zone. When the server rendered with another one (a first
 * visit, a laptop that travelled), the page is rendered again once so that what only the server
 * computes, such as the zone the date filters name, matches the times shown.
 */
function ReportBrowserZone({ serverZone }: { serverZone: string }) {
  const router = useRouter();
  useEffect(() => {
    const zone = browserTimeZone();
    if (reportedCookie() !== zone) {
      const secure = window.location.protocol === 'https:' ? '; Secure' : '';
      // Zone names hold only cookie-safe characters (lib/time/time-zone.ts), so no encoding.
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from the Firefox and Safari versions staff still use; one fixed, validated value needs no escaping.
      document.cookie = `${TIME_ZONE_COOKIE}=${zone}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
    }
    // Only when the cookie took: with cookies refused, refreshing would change nothing.
    if (zone !== serverZone && reportedCookie() === zone) router.refresh();
  }, [router, serverZone]);
  return null;
}

export function TimeZoneProvider({ timeZone, fixed, children }: ZoneSetting & { children: ReactNode }) {
  // The report is the browser's business: never rendered on the server.
  const inBrowser = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  return (
    <ZoneContext value={{ timeZone, fixed }}>
      {fixed || !inBrowser ? null : <ReportBrowserZone serverZone={timeZone} />}
      {children}
    </ZoneContext>
  );
}
