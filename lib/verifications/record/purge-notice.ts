// When the detail page warns that a finished request's data is about to go: within the last seven
// days before kept_until, so that staff can still download the evidence pack. A pending request
// is still under way (the notice would rush nobody), and once kept_until has passed the data is
// gone. Client-safe and pure, so the rule is tested without a page.

/** How long before kept_until the notice shows. */
export const PURGE_NOTICE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

const FINISHED = new Set(['completed', 'failed', 'expired']);

export function purgeNoticeDue(record: { status: string; kept_until: string }, now: number): boolean {
  if (!FINISHED.has(record.status)) return false;
  const left = Date.parse(record.kept_until) - now;
  return left > 0 && left <= PURGE_NOTICE_WINDOW_MS;
}
