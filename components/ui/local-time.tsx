'use client';
// A moment as the dashboard shows every moment (lib/time/display-time.ts): "24 Nov 2026, 14:05
// CET", in the zone components/ui/time-zone.tsx settles on, optionally with how far it is from
// `now` ("in 5 hours"). The ISO value stays in the <time> element's dateTime and title.
import { formatDate, formatDateTime, relativeTime } from '@/lib/time/display-time';
import { useDisplayTimeZone } from './time-zone';

type LocalTimeProps = {
  iso: string;
  /** The calendar day only ("24 Nov 2026"). */
  dateOnly?: boolean;
  /** Adds "(in 5 hours)" measured from this moment: the page's, so every relative time on it agrees. */
  relativeFrom?: number;
  className?: string;
};

export function LocalTime({ iso, dateOnly = false, relativeFrom, className }: LocalTimeProps) {
  const timeZone = useDisplayTimeZone();
  const text = dateOnly ? formatDate(iso, timeZone) : formatDateTime(iso, timeZone);
  return (
    <time dateTime={iso} title={iso} className={className}>
      {text}
      {relativeFrom === undefined ? null : <span className="text-slate-500"> ({relativeTime(iso, relativeFrom)})</span>}
    </time>
  );
}
