'use client';
// A timestamp in the viewer's own locale and time zone. The server cannot know the time zone,
// so it renders UTC; the browser replaces it after hydration. The ISO value stays available
// in the <time> element's dateTime and title.
import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

// Formatters are built once: constructing one costs far more than formatting with it, and a
// register page renders dozens of timestamps.
const utcFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
let localFormats: { dateTime: Intl.DateTimeFormat; date: Intl.DateTimeFormat } | undefined;

export function formatUtc(iso: string): string {
  return `${utcFormat.format(new Date(iso))} UTC`;
}

function formatLocal(iso: string, dateOnly: boolean): string {
  // In the browser only (the viewer's locale and zone), so built on first use there.
  localFormats ??= {
    dateTime: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    date: new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }),
  };
  return (dateOnly ? localFormats.date : localFormats.dateTime).format(new Date(iso));
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
