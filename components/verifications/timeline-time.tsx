'use client';
// When a history entry happened: the date and a 24-hour time with the zone's name ("24 Nov 2026,
// 14:05 UTC"), and how long ago. The server cannot know the reader's zone, so it renders UTC and
// the browser replaces it with its own zone after hydration; "how long ago" is measured from the
// server's render until then, so both sides agree on the first paint.
import { useSyncExternalStore } from 'react';
import { relativeTo } from '@/lib/verifications/time';

const subscribe = () => () => {};

const OPTIONS: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
};

// Built once: constructing a formatter costs far more than formatting with it.
const utcFormat = new Intl.DateTimeFormat('en-GB', { ...OPTIONS, timeZone: 'UTC' });
let localFormat: Intl.DateTimeFormat | undefined;

export function formatTimelineTime(iso: string, timeZone?: string): string {
  const format = timeZone === 'UTC' ? utcFormat : new Intl.DateTimeFormat('en-GB', { ...OPTIONS, timeZone });
  return format.format(new Date(iso));
}

function formatLocal(iso: string): string {
  // In the browser only (the reader's zone), so built on first use there.
  localFormat ??= new Intl.DateTimeFormat('en-GB', OPTIONS);
  return localFormat.format(new Date(iso));
}

export function TimelineTime({ iso, renderedAt }: { iso: string; renderedAt: number }) {
  const absolute = useSyncExternalStore(
    subscribe,
    () => formatLocal(iso),
    () => formatTimelineTime(iso, 'UTC'),
  );
  const relative = useSyncExternalStore(
    subscribe,
    () => relativeTo(iso, Date.now()),
    () => relativeTo(iso, renderedAt),
  );
  return (
    <time dateTime={iso} className="text-sm text-slate-600">
      {absolute} <span className="text-slate-500">({relative})</span>
    </time>
  );
}
