// An assignee filter as a condition on the register row, for the queue's and the register's queries.
import 'server-only';
import { eq, isNull, type SQL } from 'drizzle-orm';
import { verificationRequests } from '@/lib/db/schema';
import type { AssigneeFilter } from './assignee-filter';

/** Whose requests (`staffId`: the reader, for "mine"); undefined for everyone's. */
export function assigneeCondition(filter: AssigneeFilter, staffId: string): SQL | undefined {
  if (filter === 'all') return undefined;
  if (filter === 'unassigned') return isNull(verificationRequests.assignedTo);
  if (filter === 'mine') return eq(verificationRequests.assignedTo, staffId);
  return eq(verificationRequests.assignedTo, filter.staffId);
}
