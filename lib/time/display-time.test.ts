// The one way times are shown, and the calendar days the date filters select, in several zones.
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone } from '@/lib/platform/time-zone-name';
import { dayIn, formatDate, formatDateTime, isPast, relativeTime, startOfDayIn, startOfNextDayIn, zoneAbbreviation } from './display-time';

describe('formatDateTime', () => {
  it('uses a 24-hour clock and names the zone, whatever the zone', () => {
    expect(formatDateTime('2026-11-24T13:05:00.000Z', 'UTC')).toBe('24 Nov 2026, 13:05 UTC');
    expect(formatDateTime('2026-11-24T13:05:00.000Z', 'Europe/Brussels')).toBe('24 Nov 2026, 14:05 CET');
    expect(formatDateTime('2026-11-24T20:05:00.000Z', 'America/New_York')).toBe('24 Nov 2026, 15:05 EST');
    expect(formatDateTime('2026-11-24T13:05:00.000Z', 'Asia/Kolkata')).toBe('24 Nov 2026, 18:35 GMT+5:30');
    expect(formatDateTime(new Date('2026-11-24T00:00:00.000Z'), 'UTC')).toBe('24 Nov 2026, 00:00 UTC');
    expect(formatDateTime('2026-11-24T23:59:00.000Z', 'UTC')).not.toMatch(/[AP]M/);
  });

  it('follows a daylight saving change: the clock and the zone name both move', () => {
    // Brussels springs forward at 01:00 UTC on 29 March 2026.
    expect(formatDateTime('2026-03-29T00:59:00.000Z', 'Europe/Brussels')).toBe('29 Mar 2026, 01:59 CET');
    expect(formatDateTime('2026-03-29T01:00:00.000Z', 'Europe/Brussels')).toBe('29 Mar 2026, 03:00 CEST');
    expect(zoneAbbreviation('2026-07-01T12:00:00.000Z', 'America/New_York')).toBe('EDT');
  });

  it('shows the day in the zone, which can differ from the UTC day', () => {
    expect(formatDateTime('2026-11-24T23:30:00.000Z', 'Europe/Brussels')).toBe('25 Nov 2026, 00:30 CET');
    expect(formatDate('2026-11-24T23:30:00.000Z', 'Europe/Brussels')).toBe('25 Nov 2026');
    expect(formatDate('2026-11-24T23:30:00.000Z', 'UTC')).toBe('24 Nov 2026');
  });
});

describe('relativeTime', () => {
  const NOW = Date.parse('2026-11-24T12:00:00.000Z');
  const at = (ms: number) => new Date(NOW + ms).toISOString();
  it.each([
    [7 * 86_400_000, 'in 7 days'],
    [7 * 86_400_000 - 60_000, 'in 6 days'],
    [86_400_000, 'in 1 day'],
    [23 * 3_600_000 + 40 * 60_000, 'in 23 hours'],
    [5 * 3_600_000 + 59 * 60_000, 'in 5 hours'],
    [90_000, 'in 1 minute'],
    [30_000, 'in 30 seconds'],
    [-30_000, '30 seconds ago'],
    [400, 'in 1 second'],
    [-2 * 3_600_000 - 59 * 60_000, '2 hours ago'],
    [-3 * 86_400_000, '3 days ago'],
  ])('%i ms from now → %s (whole units, counted down, never "tomorrow")', (offset, text) => {
    expect(relativeTime(at(offset), NOW)).toBe(text);
  });

  it('takes a Date or a number for now, and says when a moment is past', () => {
    expect(relativeTime(at(3_600_000), new Date(NOW))).toBe('in 1 hour');
    expect(isPast(at(0), NOW)).toBe(true);
    expect(isPast(at(1), NOW)).toBe(false);
  });
});

describe('calendar days in a zone (the date filters)', () => {
  it('starts a day at the zone’s midnight and ends it at the next', () => {
    expect(startOfDayIn('2026-11-24', 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(startOfDayIn('2026-11-24', 'Europe/Brussels').toISOString()).toBe('2026-11-23T23:00:00.000Z');
    expect(startOfNextDayIn('2026-11-24', 'Europe/Brussels').toISOString()).toBe('2026-11-24T23:00:00.000Z');
    expect(startOfDayIn('2026-11-24', 'Asia/Kolkata').toISOString()).toBe('2026-11-23T18:30:00.000Z');
    expect(startOfDayIn('2026-11-24', 'America/New_York').toISOString()).toBe('2026-11-24T05:00:00.000Z');
  });

  it('gives a daylight saving day its real length: 23 hours in spring, 25 in autumn', () => {
    const hours = (day: string, zone: string) => (startOfNextDayIn(day, zone).getTime() - startOfDayIn(day, zone).getTime()) / 3_600_000;
    expect(hours('2026-03-29', 'Europe/Brussels')).toBe(23);
    expect(hours('2026-10-25', 'Europe/Brussels')).toBe(25);
    expect(startOfDayIn('2026-03-30', 'Europe/Brussels').toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('starts a day whose midnight is skipped at its first minute', () => {
    // Santiago moves its clocks from 00:00 to 01:00 on 6 September 2026.
    expect(startOfDayIn('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dayIn(startOfDayIn('2026-09-06', 'America/Santiago'), 'America/Santiago')).toBe('2026-09-06');
  });

  it('puts an instant on the day it falls on in the zone', () => {
    expect(dayIn(new Date('2026-11-24T23:30:00.000Z'), 'Europe/Brussels')).toBe('2026-11-25');
    expect(dayIn(new Date('2026-11-25T03:30:00.000Z'), 'America/New_York')).toBe('2026-11-24');
    expect(dayIn(new Date('2026-11-24T23:30:00.000Z'), 'UTC')).toBe('2026-11-24');
  });
});

describe('canonicalTimeZone', () => {
  it('accepts the zones the runtime knows, in their canonical spelling', () => {
    expect(canonicalTimeZone('Europe/Brussels')).toBe('Europe/Brussels');
    expect(canonicalTimeZone('europe/brussels')).toBe('Europe/Brussels');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
  });

  it.each([['Mars/Olympus_Mons'], ['+01:00'], [''], ['Europe/Brussels; Path=/'], ['<script>'], [42], [undefined]])('refuses %s', (name) => {
    expect(canonicalTimeZone(name)).toBeUndefined();
  });
});

describe('in the reader’s language', () => {
  const NOW = Date.parse('2026-11-24T12:00:00.000Z');
  it.each([
    ['en', '24 Nov 2026, 13:00 CET', '24 Nov 2026', 'in 5 hours', '2 days ago'],
    ['fr', '24 nov. 2026, 13:00 CET', '24 nov. 2026', 'dans 5 heures', 'il y a 2 jours'],
    ['nl', '24 nov 2026, 13:00 CET', '24 nov 2026', 'over 5 uur', '2 dagen geleden'],
  ] as const)('%s: day before month, a 24-hour clock, relative times in its words', (language, dateTime, date, ahead, behind) => {
    expect(formatDateTime('2026-11-24T12:00:00.000Z', 'Europe/Brussels', language)).toBe(dateTime);
    expect(formatDate('2026-11-24T12:00:00.000Z', 'Europe/Brussels', language)).toBe(date);
    expect(relativeTime(new Date(NOW + 5 * 3_600_000 + 59 * 60_000), NOW, language)).toBe(ahead);
    expect(relativeTime(new Date(NOW - 2 * 86_400_000), NOW, language)).toBe(behind);
  });

  it.each([
    ['fr', '29 mars 2026, 01:59 CET', '29 mars 2026, 03:00 CEST'],
    ['nl', '29 mrt 2026, 01:59 CET', '29 mrt 2026, 03:00 CEST'],
  ] as const)('%s: the day clocks go forward, the zone name changes with the hour', (language, before, after) => {
    expect(formatDateTime('2026-03-29T00:59:00.000Z', 'Europe/Brussels', language)).toBe(before);
    expect(formatDateTime('2026-03-29T01:00:00.000Z', 'Europe/Brussels', language)).toBe(after);
  });

  it.each([
    ['fr', 1, 'dans 1 heure'],
    ['fr', 2, 'dans 2 heures'],
    ['nl', 1, 'over 1 uur'],
    ['nl', 1 / 60, 'over 1 minuut'],
    ['nl', 2 / 60, 'over 2 minuten'],
  ] as const)('%s: %f hours ahead → %s (singular and plural forms)', (language, hours, text) => {
    expect(relativeTime(new Date(NOW + hours * 3_600_000), NOW, language)).toBe(text);
  });
});
