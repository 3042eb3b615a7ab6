// The overview's period: this month, the last 30 days, this quarter, or days chosen by hand, as
// calendar days of the display zone (a day starts at the zone's midnight, whatever its length), and
// whether its chart counts per day or per week. Client-safe: the page's period links build on it.
import { dayIn, startOfDayIn, startOfNextDayIn } from '@/lib/time/display-time';

export const PERIODS = ['month', '30d', 'quarter', 'custom'] as const;
export type PeriodKind = (typeof PERIODS)[number];

/** Up to this many days the chart has a bar per day; beyond, a bar per week (Monday to Sunday). */
export const DAILY_UP_TO_DAYS = 62;

export type Period = {
  kind: PeriodKind;
  /** First and last calendar day, inclusive ("2026-11-01", "2026-11-29"). */
  firstDay: string;
  lastDay: string;
  /** The instants the figures count between: [from, to). */
  from: Date;
  to: Date;
  bucket: 'day' | 'week';
  timeZone: string;
};

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MAX_CUSTOM_DAYS = 366 * 2;

/** A calendar day `days` after `day` (negative: before); civil arithmetic, no zone involved. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

function isDay(value: string | undefined): value is string {
  if (!value || !DAY_PATTERN.test(value)) return false;
  // "2026-13-01" matches the pattern but is no date (and an invalid Date cannot be printed).
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export function daysBetween(firstDay: string, lastDay: string): number {
  return Math.round((Date.parse(`${lastDay}T00:00:00.000Z`) - Date.parse(`${firstDay}T00:00:00.000Z`)) / 86_400_000) + 1;
}

function period(kind: PeriodKind, firstDay: string, lastDay: string, timeZone: string): Period {
  return {
    kind,
    firstDay,
    lastDay,
    from: startOfDayIn(firstDay, timeZone),
    to: startOfNextDayIn(lastDay, timeZone),
    bucket: daysBetween(firstDay, lastDay) <= DAILY_UP_TO_DAYS ? 'day' : 'week',
    timeZone,
  };
}

export type PeriodProblem = 'from' | 'to' | 'order' | 'length';

/**
 * The period the page's query asks for (`period`, and `from`/`to` for custom), at `now` in
 * `timeZone`; this month when absent. A custom period that cannot be read is this month, with
 * the problem named for the page to say.
 */
export function readPeriod(
  params: { period?: string; from?: string; to?: string },
  now: Date,
  timeZone: string,
): { period: Period; problem?: PeriodProblem } {
  const today = dayIn(now, timeZone);
  const month = () => period('month', `${today.slice(0, 7)}-01`, today, timeZone);
  switch (params.period) {
    case '30d':
      return { period: period('30d', addDays(today, -29), today, timeZone) };
    case 'quarter': {
      const quarterMonth = Math.floor((Number(today.slice(5, 7)) - 1) / 3) * 3 + 1;
      return { period: period('quarter', `${today.slice(0, 4)}-${String(quarterMonth).padStart(2, '0')}-01`, today, timeZone) };
    }
    case 'custom': {
      if (!isDay(params.from)) return { period: month(), problem: 'from' };
      if (!isDay(params.to)) return { period: month(), problem: 'to' };
      if (params.from > params.to) return { period: month(), problem: 'order' };
      if (daysBetween(params.from, params.to) > MAX_CUSTOM_DAYS) return { period: month(), problem: 'length' };
      return { period: period('custom', params.from, params.to, timeZone) };
    }
    default:
      return { period: month() };
  }
}

/** Every bucket of the period in order, as the figures key them: each day, or each week's Monday. */
export function bucketsOf(p: Pick<Period, 'firstDay' | 'lastDay' | 'bucket'>): string[] {
  const buckets: string[] = [];
  let day = p.firstDay;
  if (p.bucket === 'week') {
    // Back to the Monday of the first day's week (getUTCDay: Sunday 0).
    const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
    day = addDays(day, -((weekday + 6) % 7));
  }
  const step = p.bucket === 'week' ? 7 : 1;
  for (; day <= p.lastDay; day = addDays(day, step)) buckets.push(day);
  return buckets;
}
