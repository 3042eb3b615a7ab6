// A moment as the dashboard shows every moment (lib/time/display-time.ts): "24 Nov 2026, 14:05
// CET" in the given zone, optionally with how far it is from `relativeFrom` ("in 5 hours"). The ISO
// value stays in the <time> element's dateTime and title. No hooks and no 'use client': a server
// component passes the zone its page reads (lib/time/display-zone.ts) and the text is formatted on
// the server, so the browser hydrates a plain <time> instead of formatting every row with Intl (on
// a phone's CPU, building the formatters and formatting a register page cost ~200 ms). When the
// browser's zone differs, components/ui/time-zone.tsx reports it and refreshes the page, which
// the server renders again in that zone. Client components use LocalTime, which picks the zone.
import type { Language } from '@/lib/i18n/languages';
import { formatDate, formatDateTime, formatTime, relativeTime, zoneAbbreviation } from '@/lib/time/display-time';

export type TimeTextProps = {
  iso: string;
  timeZone: string;
  /** The reader's language (next-intl's getLocale() on the server, useClientLanguage() in the browser). */
  language?: Language;
  /** The calendar day only ("24 Nov 2026"). */
  dateOnly?: boolean;
  /**
   * The date above the time ("24 Nov 2026" / "14:05 CET"), each kept whole: in a wide table a
   * moment then takes a date's width instead of a whole line's.
   */
  stacked?: boolean;
  /** Adds "(in 5 hours)" measured from this moment: the page's, so every relative time on it agrees. */
  relativeFrom?: number;
  className?: string;
};

export function TimeText({ iso, timeZone, language, dateOnly = false, stacked = false, relativeFrom, className }: TimeTextProps) {
  if (stacked && !dateOnly) {
    return (
      <time dateTime={iso} title={iso} className={className}>
        <span className="block whitespace-nowrap">{formatDate(iso, timeZone, language)}</span>{' '}
        <span className="block whitespace-nowrap text-slate-500">
          {formatTime(iso, timeZone, language)} {zoneAbbreviation(iso, timeZone)}
        </span>
      </time>
    );
  }
  const text = dateOnly ? formatDate(iso, timeZone, language) : formatDateTime(iso, timeZone, language);
  return (
    <time dateTime={iso} title={iso} className={className}>
      {text}
      {relativeFrom === undefined ? null : <span className="text-slate-500"> ({relativeTime(iso, relativeFrom, language)})</span>}
    </time>
  );
}
