// The one way the dashboard shows time: a 24-hour clock with the zone's name ("24 Nov 2026, 14:05
// CET"), a date alone ("24 Nov 2026"), and relative phrasing ("in 5 hours", "2 days ago"), each
// in the reader's language ("24 nov. 2026, 14:05 CET", "il y a 2 jours", "over 5 uur"). Pure
// and client-safe; components/ui/time-text.tsx renders these in a given zone: server components
// pass their page's, client ones (through local-time.tsx) the zone components/ui/time-zone.tsx
// settles on. Date filters use the same zone's calendar days.

import { DEFAULT_LANGUAGE, FORMAT_LOCALES, type Language } from '@/lib/i18n/languages';

type FormatName = 'dateTime' | 'date' | 'time' | 'britishName' | 'americanName' | 'parts';

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };

// The reader's language for what they read, day before month and no AM/PM in each (en-GB, fr-BE,
// nl-BE); fixed locales for the zone's name and for the parts computed with.
const FORMATS: Record<FormatName, [locale: string | undefined, options: Intl.DateTimeFormatOptions]> = {
  dateTime: [undefined, { ...DAY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }],
  date: [undefined, DAY],
  time: [undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }],
  britishName: ['en-GB', { timeZoneName: 'short' }],
  americanName: ['en-US', { timeZoneName: 'short' }],
  parts: [
    'en-US',
    { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  ],
};

// Each built once per zone, and only when first used: constructing a formatter costs far more
// than formatting with it (a register page renders dozens of timestamps), and a page in the
// browser needs two of the five (building all five cost a phone-speed CPU ~100 ms per page).
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(name: FormatName, timeZone: string, language: Language = DEFAULT_LANGUAGE): Intl.DateTimeFormat {
  const [fixedLocale, options] = FORMATS[name];
  const locale = fixedLocale ?? FORMAT_LOCALES[language];
  const key = `${name} ${locale} ${timeZone}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, format);
  }
  return format;
}

const toDate = (at: Date | string) => (typeof at === 'string' ? new Date(at) : at);

function zoneNamePart(format: Intl.DateTimeFormat, at: Date): string {
  return format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/**
 * The zone's short name at that instant, as people know it: "CET"/"CEST" (British English knows
 * the European ones), "EST"/"EDT" (American English knows the American ones), else the offset
 * ("GMT+5:30"). It changes with daylight saving time, so it is read for each instant.
 */
export function zoneAbbreviation(at: Date | string, timeZone: string): string {
  const instant = toDate(at);
  const british = zoneNamePart(formatter('britishName', timeZone), instant);
  if (!british.startsWith('GMT')) return british;
  const american = zoneNamePart(formatter('americanName', timeZone), instant);
  return /^[A-Z]{2,5}$/.test(american) ? american : british;
}

/** "24 Nov 2026, 14:05 CET": the date, a 24-hour time, and the zone it is in. */
export function formatDateTime(at: Date | string, timeZone: string, language: Language = DEFAULT_LANGUAGE): string {
  const instant = toDate(at);
  return `${formatter('dateTime', timeZone, language).format(instant)} ${zoneAbbreviation(instant, timeZone)}`;
}

/** "24 Nov 2026": the calendar day in that zone. */
export function formatDate(at: Date | string, timeZone: string, language: Language = DEFAULT_LANGUAGE): string {
  return formatter('date', timeZone, language).format(toDate(at));
}

/** "14:05": the time of day in that zone, for a span within one day whose date is shown beside it. */
export function formatTime(at: Date | string, timeZone: string, language: Language = DEFAULT_LANGUAGE): string {
  return formatter('time', timeZone, language).format(toDate(at));
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

// "always", never "tomorrow"/"yesterday": those name a calendar day, which depends on the zone,
// while this phrasing counts elapsed time. Built on first use, not when a page's modules load.
const relativeFormats = new Map<Language, Intl.RelativeTimeFormat>();

function relativeFormat(language: Language): Intl.RelativeTimeFormat {
  let format = relativeFormats.get(language);
  if (!format) {
    format = new Intl.RelativeTimeFormat(FORMAT_LOCALES[language], { numeric: 'always' });
    relativeFormats.set(language, format);
  }
  return format;
}

/**
 * How far `at` is from `now`, in the largest whole unit: "in 5 hours", "2 days ago". Whole units
 * are counted down (5 h 59 min is "in 5 hours"), so a deadline never reads as further away than
 * it is, and the register and the detail page, given the same moment, say the same thing. Under a
 * minute, the seconds ("in 30 seconds", "il y a 30 secondes").
 */
export function relativeTime(at: Date | string, now: Date | number, language: Language = DEFAULT_LANGUAGE): string {
  const diff = toDate(at).getTime() - (typeof now === 'number' ? now : now.getTime());
  for (const [unit, ms] of UNITS) {
    const whole = Math.trunc(diff / ms);
    if (whole !== 0) return relativeFormat(language).format(whole, unit);
  }
  // Never "in 0 seconds": a moment less than a second away is a second away.
  const seconds = Math.trunc(diff / 1000) || (diff >= 0 ? 1 : -1);
  return relativeFormat(language).format(seconds, 'second');
}

export function isPast(at: Date | string, now: Date | number): boolean {
  return toDate(at).getTime() <= (typeof now === 'number' ? now : now.getTime());
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

function wallClock(at: Date, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    formatter('parts', timeZone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** How far the zone's clocks are ahead of UTC at that instant, in milliseconds. */
function offsetAt(at: Date, timeZone: string): number {
  const c = wallClock(at, timeZone);
  const asIfUtc = Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);
  return asIfUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The calendar day ("2026-11-24") that instant falls on in the zone. */
export function dayIn(at: Date | string, timeZone: string): string {
  const c = wallClock(toDate(at), timeZone);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(c.year, 4)}-${pad(c.month)}-${pad(c.day)}`;
}

/**
 * The first instant of a calendar day ("2026-03-29") in the zone: its midnight, or where a
 * daylight-saving jump skips midnight, the first minute the clocks show that day.
 */
export function startOfDayIn(day: string, timeZone: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00.000Z`);
  // The offset can differ between midnight UTC and the zone's midnight (a DST change between
  // them), so it is read again at the first guess.
  const firstGuess = midnightUtc - offsetAt(new Date(midnightUtc), timeZone);
  const secondGuess = midnightUtc - offsetAt(new Date(firstGuess), timeZone);
  const candidates = [firstGuess, secondGuess].filter((t) => dayIn(new Date(t), timeZone) === day);
  // Midnight skipped (clocks go from 23:59 to 01:00): the day starts where the earlier guess's hour does.
  return new Date(candidates.length > 0 ? Math.min(...candidates) : Math.max(firstGuess, secondGuess));
}

/** The first instant of the day after `day` in the zone: a whole day is [start, next start). */
export function startOfNextDayIn(day: string, timeZone: string): Date {
  const next = new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
  return startOfDayIn(next, timeZone);
}
