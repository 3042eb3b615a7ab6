// A calendar day as date filters take it ("2026-11-24", read in the display zone by
// display-time.ts). Shared by the register's and the audit trail's filters. Pure and client-safe.
import { z } from 'zod';

// The year is bounded so that the day after `to` is still a date Postgres and `Date#toISOString`
// agree on (year 0 and five-digit years are not).
export const calendarDay = z.iso.date().refine((day) => {
  const year = Number(day.slice(0, 4));
  return year >= 1970 && year <= 9998;
});
