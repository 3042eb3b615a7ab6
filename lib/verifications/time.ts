// Relative phrasing of the record's deadlines ("in 30 days", "2 hours ago").
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

// Built once: constructing a formatter costs far more than formatting with it.
const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

export function relativeTo(iso: string, now: number): string {
  const diff = new Date(iso).getTime() - now;
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'minute') return format.format(Math.round(diff / ms), unit);
  }
  return format.format(0, 'minute');
}

export function isPast(iso: string, now: number): boolean {
  return new Date(iso).getTime() <= now;
}
