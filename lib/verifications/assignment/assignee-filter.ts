// Whose requests to show, as the queue and the register both filter them: everyone's, the
// reader's, nobody's yet, or one colleague's, read from and written to `?assignee=`. Client-safe:
// the pages' filter links build on it; assignee-condition.server.ts turns it into SQL.

export type AssigneeFilter = 'all' | 'mine' | 'unassigned' | { staffId: string };

/** `?assignee=` as a filter: mine, unassigned, a staff id, or (absent or unreadable) all. */
export function readAssigneeFilter(value: string | string[] | undefined): AssigneeFilter {
  const given = Array.isArray(value) ? value[0] : value;
  if (given === 'mine' || given === 'unassigned') return given;
  // Staff ids are opaque; a control character or an oversized value is not one.
  if (given && given.length <= 200 && !/[\u0000-\u001f\u007f]/.test(given)) return { staffId: given };
  return 'all';
}

/** The filter as its `?assignee=` value ('' for everyone's). */
export function assigneeFilterParam(filter: AssigneeFilter): string {
  return typeof filter === 'string' ? (filter === 'all' ? '' : filter) : filter.staffId;
}
