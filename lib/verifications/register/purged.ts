// When the register calls a request purged: once its kept_until has passed. The service purges
// its record at kept_until, and the register keeps the row until the dashboard's own retention
// removes it (retention.server.ts deletes rows whose kept_until has passed; lib/jobs/retention-jobs.ts
// runs it hourly, so a row shows "Purged" for at most about an hour, or longer while no instance
// runs the job), or until the service's purge notice does (lib/webhook-receiver). Derived from
// kept_until rather than written into the row: the row's status keeps the last outcome the
// dashboard saw, which the detail page shows as the register's copy, and a row nobody reads again
// still reads "Purged". Client-safe: the list and the export use it alike.

/** The status word's code for a request past its kept_until (common.status.purged). */
export const PURGED_STATUS = 'purged';

/** Whether the request's data is due to be gone from the service: its kept_until has passed. */
export function isPastKeptUntil(entry: { keptUntil: Date | null }, now: Date): boolean {
  return entry.keptUntil !== null && entry.keptUntil.getTime() <= now.getTime();
}

/** The status the register shows: "purged" past kept_until, else the last one the dashboard saw. */
export function registerStatus(entry: { status: string; keptUntil: Date | null }, now: Date): string {
  return isPastKeptUntil(entry, now) ? PURGED_STATUS : entry.status;
}
