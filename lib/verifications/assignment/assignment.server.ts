// Who works on which request. A request in the register is taken by one staff member at a time:
// for themselves ("take"), or given to a colleague, handed back or passed on by an operator or
// administrator. Every change is one conditional UPDATE of the register row, so across any number
// of instances two people acting at once cannot both win: the second is told who has it. Each
// change writes an audit entry with ids only and a live event, so open pages on every instance
// show the new assignee.
import 'server-only';
import { eq } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { can } from '@/lib/auth/roles';
import { getDb } from '@/lib/db';
import { staffUsers, verificationRequests } from '@/lib/db/schema';
import type { StaffRole } from '@/lib/db/staff-roles';
import { publishVerificationChange } from '@/lib/live';

export type Assignee = { id: string; name: string };

/** Why an assignment change was not made, as a code: the form's action says it in the reader's words. */
export type AssignmentRefusal =
  /** The request is not in the register (never created here, or purged). */
  | 'not_in_register'
  /** Someone else holds it (for "take"), or it changed since the page was shown (for the others). */
  | 'taken'
  /** The colleague does not exist, is disabled, or may not work on requests. */
  | 'not_a_colleague';

export class AssignmentRefused extends Error {
  override name = 'AssignmentRefused';
  constructor(
    readonly reason: AssignmentRefusal,
    /** Who holds the request now, for 'taken' (null: nobody, it was handed back meanwhile). */
    readonly holder: Assignee | null = null,
  ) {
    super(`assignment refused: ${reason}`);
  }
}

/** The request's assignee, with their name as their account has it now, and since when. */
export async function getAssignee(verificationId: string): Promise<(Assignee & { since: Date }) | null> {
  const db = await getDb();
  const [row] = await db
    .select({ id: staffUsers.id, name: staffUsers.name, since: verificationRequests.assignedAt })
    .from(verificationRequests)
    .innerJoin(staffUsers, eq(staffUsers.id, verificationRequests.assignedTo))
    .where(eq(verificationRequests.verificationId, verificationId));
  return row ? { id: row.id, name: row.name, since: row.since ?? new Date(0) } : null;
}

/** Staff members a request can be given to: enabled accounts whose role may work on requests. */
export async function listAssignableStaff(): Promise<Assignee[]> {
  const db = await getDb();
  const rows = await db
    .select({ id: staffUsers.id, name: staffUsers.name, role: staffUsers.role })
    .from(staffUsers)
    .where(eq(staffUsers.disabled, false))
    .orderBy(staffUsers.name, staffUsers.id);
  return rows.filter((row) => mayWorkOnRequests(row.role)).map(({ id, name }) => ({ id, name }));
}

function mayWorkOnRequests(role: string): boolean {
  return can(role as StaffRole, 'verification:assign');
}

/**
 * `staffId` takes the request for themselves. Succeeds when nobody holds it, or when they do
 * already (a second click changes nothing and writes nothing); otherwise AssignmentRefused
 * 'taken' with the holder.
 */
export async function takeRequest(staffId: string, verificationId: string): Promise<void> {
  await changeAssignee(staffId, verificationId, { to: staffId });
}

/**
 * `actorId` gives the request to `toStaffId` (a colleague, or themselves), or hands it back
 * (`toStaffId` null). `expected` is the assignee the actor saw on the page (null: nobody): the
 * change is made only if that is still so, so two people reassigning at once do not silently
 * overwrite each other; the later one is told who has it now.
 */
export async function assignRequest(
  actorId: string,
  verificationId: string,
  toStaffId: string | null,
  expected: string | null,
): Promise<void> {
  await changeAssignee(actorId, verificationId, { to: toStaffId, expected });
}

async function changeAssignee(
  actorId: string,
  verificationId: string,
  change: { to: string | null; expected?: string | null },
): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    // FOR UPDATE: changes to one request's assignee, from any instance, queue here one after
    // another; each reads the assignee the previous one committed.
    const [current] = await tx
      .select({ assignedTo: verificationRequests.assignedTo, status: verificationRequests.status, holderName: staffUsers.name })
      .from(verificationRequests)
      .leftJoin(staffUsers, eq(staffUsers.id, verificationRequests.assignedTo))
      .where(eq(verificationRequests.verificationId, verificationId))
      .for('update', { of: verificationRequests });
    if (!current) throw new AssignmentRefused('not_in_register');
    // Already as asked (a second click, or two people giving it to the same colleague): nothing
    // to change, nothing to record.
    if (current.assignedTo === change.to) return;
    // A row that waited for the lock is read again as the other writer left it, but the joined
    // staff row is not: the new holder's name then has to be read on its own.
    const holderName =
      current.assignedTo === null
        ? null
        : (current.holderName ??
          (await tx.select({ name: staffUsers.name }).from(staffUsers).where(eq(staffUsers.id, current.assignedTo)))[0]?.name ??
          null);
    const holder = current.assignedTo && holderName ? { id: current.assignedTo, name: holderName } : null;
    // "Take" needs nobody to hold it; the others need the assignee the actor saw.
    const expected = change.expected === undefined ? null : change.expected;
    if (current.assignedTo !== expected) throw new AssignmentRefused('taken', holder);

    if (change.to !== null) {
      // FOR SHARE: the colleague cannot be disabled between this check and the commit (disabling
      // updates the row, and hands their requests back in the same transaction).
      const [colleague] = await tx
        .select({ role: staffUsers.role, disabled: staffUsers.disabled })
        .from(staffUsers)
        .where(eq(staffUsers.id, change.to))
        .for('share');
      if (!colleague || colleague.disabled || !mayWorkOnRequests(colleague.role)) throw new AssignmentRefused('not_a_colleague');
    }
    await tx
      .update(verificationRequests)
      .set({ assignedTo: change.to, assignedAt: change.to === null ? null : new Date() })
      .where(eq(verificationRequests.verificationId, verificationId));
    await recordAudit(
      change.to === null
        ? {
            actorId,
            action: 'verification.unassigned',
            target: { type: 'verification', id: verificationId },
            ...(current.assignedTo ? { details: { previous: current.assignedTo } } : {}),
          }
        : {
            actorId,
            action: 'verification.assigned',
            target: { type: 'verification', id: verificationId },
            details: current.assignedTo ? { assignee: change.to, previous: current.assignedTo } : { assignee: change.to },
          },
      tx,
    );
    await publishVerificationChange({ verificationId, status: current.status }, tx);
  });
}
