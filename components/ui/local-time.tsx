'use client';
// A timestamp in the viewer's own locale and time zone. The server cannot know the time zone,
// so it renders UTC; the browser replaces it after hydration. The ISO value stays available
// in the <time> element's dateTime and title.
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

export function formatUtc(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(iso)) + ' UTC';
}

function formatLocal(iso: string, dateOnly: boolean): string {
  return new Intl.DateTimeFormat(undefined, dateOnly ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

export function LocalTime({ iso, dateOnly = false, className }: { iso: string; dateOnly?: boolean; className?: string }) {
  const text = useSyncExternalStore(
    subscribe,
    () => formatLocal(iso, dateOnly),
    () => formatUtc(iso),
  );
  return (
    <time dateTime={iso} title={iso} className={className}>
      {text}
    </time>
  );
}
