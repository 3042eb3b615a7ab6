// The overview's periods as calendar days of the display zone: where each begins and ends, when
// the chart switches from days to weeks, and what a custom period that cannot be read becomes.
import { describe, expect, it } from 'vitest';
import { bucketsOf, readPeriod } from './period';

const BRUSSELS = 'Europe/Brussels';
// 29 November 2026, 00:30 in Brussels (23:30 UTC the day before).
const NOW = new Date('2026-11-28T23:30:00.000Z');

describe('readPeriod', () => {
  it('starts this month at the zone’s midnight of its first day and ends it with today', () => {
    const { period } = readPeriod({}, NOW, BRUSSELS);
    expect(period).toMatchObject({ kind: 'month', firstDay: '2026-11-01', lastDay: '2026-11-29', bucket: 'day' });
    expect(period.from.toISOString()).toBe('2026-10-31T23:00:00.000Z');
    expect(period.to.toISOString()).toBe('2026-11-29T23:00:00.000Z');
    // The same instant is still the 28th in UTC.
    expect(readPeriod({}, NOW, 'UTC').period.lastDay).toBe('2026-11-28');
  });

  it('gives the last 30 days with today, and this quarter from its first day, across a daylight-saving change', () => {
    expect(readPeriod({ period: '30d' }, NOW, BRUSSELS).period).toMatchObject({ firstDay: '2026-10-31', lastDay: '2026-11-29' });
    const quarter = readPeriod({ period: 'quarter' }, NOW, BRUSSELS).period;
    // 60 days: still a bar per day; a longer period has one per week.
    expect(quarter).toMatchObject({ firstDay: '2026-10-01', bucket: 'day' });
    expect(readPeriod({ period: 'custom', from: '2026-01-01', to: '2026-03-04' }, NOW, BRUSSELS).period.bucket).toBe('week');
    // 1 October is still summer time (UTC+2) in Brussels.
    expect(quarter.from.toISOString()).toBe('2026-09-30T22:00:00.000Z');
  });

  it('reads custom days inclusively, and names what it cannot read', () => {
    const { period } = readPeriod({ period: 'custom', from: '2026-03-01', to: '2026-03-31' }, NOW, BRUSSELS);
    expect(period.from.toISOString()).toBe('2026-02-28T23:00:00.000Z');
    // 29 March has 23 hours in Brussels; the period ends at 1 April's midnight, summer time.
    expect(period.to.toISOString()).toBe('2026-03-31T22:00:00.000Z');
    expect(readPeriod({ period: 'custom', from: '2026-02-30', to: '2026-03-31' }, NOW, BRUSSELS).problem).toBe('from');
    expect(readPeriod({ period: 'custom', from: '2026-03-01' }, NOW, BRUSSELS).problem).toBe('to');
    expect(readPeriod({ period: 'custom', from: '2026-04-01', to: '2026-03-01' }, NOW, BRUSSELS)).toMatchObject({
      problem: 'order',
      period: { kind: 'month' },
    });
    expect(readPeriod({ period: 'custom', from: '2020-01-01', to: '2026-01-01' }, NOW, BRUSSELS).problem).toBe('length');
  });
});

describe('bucketsOf', () => {
  it('lists every day up to 62 days, and beyond each week from the Monday of the first', () => {
    expect(bucketsOf({ firstDay: '2026-11-27', lastDay: '2026-11-29', bucket: 'day' })).toEqual(['2026-11-27', '2026-11-28', '2026-11-29']);
    // 1 October 2026 is a Thursday: its week began on Monday 28 September.
    const weeks = bucketsOf({ firstDay: '2026-10-01', lastDay: '2026-11-29', bucket: 'week' });
    expect(weeks[0]).toBe('2026-09-28');
    expect(weeks.at(-1)).toBe('2026-11-23');
    expect(weeks).toHaveLength(9);
  });
});
