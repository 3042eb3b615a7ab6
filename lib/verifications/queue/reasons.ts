// Why a request is in the queue, and whose items the queue shows. Client-safe: the page's words
// and its filter links build on the same lists.

/** In the order the page lists the counts: what is decided on first, then what is running out. */
export const QUEUE_REASONS = ['name_mismatch', 'failed', 'expired', 'expiring', 'stale'] as const;
export type QueueReason = (typeof QUEUE_REASONS)[number];

/** Whose items: everyone's, the reader's, nobody's yet, or one colleague's. */
export type QueueAssigneeFilter = 'all' | 'mine' | 'unassigned' | { staffId: string };

/** The page's `?assignee=` as a filter: mine, unassigned, a staff id, or (absent or unreadable) all. */
export function queueAssigneeFilter(value: string | string[] | undefined): QueueAssigneeFilter {
  const given = Array.isArray(value) ? value[0] : value;
  if (given === 'mine' || given === 'unassigned') return given;
  // Staff ids are opaque; a control character or an oversized value is not one.
  if (given && given.length <= 200 && !/[\u0000-\u001f\u007f]/.test(given)) return { staffId: given };
  return 'all';
}

/** The filter as the page's `?assignee=` value ('' for everyone's). */
export function queueAssigneeParam(filter: QueueAssigneeFilter): string {
  return typeof filter === 'string' ? (filter === 'all' ? '' : filter) : filter.staffId;
}
