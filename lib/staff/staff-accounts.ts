// Staff accounts: create, list, change role, disable. Each change and its audit entry are
// written in one transaction. Accounts are disabled, never deleted, so the audit trail's ids
// keep pointing somewhere.
import 'server-only';
import { and, asc, count, eq } from 'drizzle-orm';
import { recordAudit, recordAudits } from '@/lib/audit/audit';
import { can, type StaffRole } from '@/lib/auth/roles';
import { forgetValidatedSessions } from '@/lib/auth/session-cache';
import { insertStaff, type NewStaff, StaffError } from '@/lib/auth/staff-records';
import { type Db, getDb } from '@/lib/db';
import { type StaffUserRow, staffSessions, staffUsers, verificationRequests } from '@/lib/db/schema';
import { publishVerificationChange } from '@/lib/live';

// The account rows themselves, and the error every refused change throws, are identity's.
export { findStaffIdByEmail, type NewStaff, StaffError } from '@/lib/auth/staff-records';

export type StaffSummary = Pick<StaffUserRow, 'id' | 'name' | 'email' | 'role' | 'disabled' | 'twoFactorEnabled' | 'createdAt'>;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export async function countStaff(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ n: count() }).from(staffUsers);
  return row?.n ?? 0;
}

export async function listStaff(): Promise<StaffSummary[]> {
  const db = await getDb();
  return db
    .select({
      id: staffUsers.id,
      name: staffUsers.name,
      email: staffUsers.email,
      role: staffUsers.role,
      disabled: staffUsers.disabled,
      twoFactorEnabled: staffUsers.twoFactorEnabled,
      createdAt: staffUsers.createdAt,
    })
    .from(staffUsers)
    .orderBy(asc(staffUsers.disabled), asc(staffUsers.name));
}

/** Creates the account and its audit entry inside `tx`. */
export async function createStaffIn(tx: Tx, actorId: string | null, staff: NewStaff): Promise<string> {
  const id = await insertStaff(tx, staff);
  await recordAudit({ actorId, action: 'staff.created', target: { type: 'staff', id }, details: { role: staff.role } }, tx);
  return id;
}

export async function createStaff(actorId: string | null, staff: NewStaff): Promise<string> {
  const db = await getDb();
  return db.transaction((tx) => createStaffIn(tx, actorId, staff));
}

async function assertNotLastAdmin(tx: Tx, userId: string): Promise<void> {
  // Every active administrator's row is locked, in one order, until the transaction ends: two
  // admins demoting or disabling each other at once (on two instances, say) are taken one after
  // the other, and the second sees the first's change and is refused. Counting without the lock
  // lets both see "one other admin left" and both go ahead.
  const admins = await tx
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(and(eq(staffUsers.role, 'admin'), eq(staffUsers.disabled, false)))
    .orderBy(staffUsers.id)
    .for('update');
  if (!admins.some((admin) => admin.id === userId)) return;
  if (admins.length <= 1) throw new StaffError('This is the last active administrator; make someone else an administrator first.', 'role');
}

export async function changeStaffRole(actorId: string, userId: string, role: StaffRole): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [target] = await tx.select({ role: staffUsers.role }).from(staffUsers).where(eq(staffUsers.id, userId));
    if (!target) throw new StaffError('That account does not exist.');
    if (target.role === role) return;
    if (role !== 'admin') await assertNotLastAdmin(tx, userId);
    await tx.update(staffUsers).set({ role, updatedAt: new Date() }).where(eq(staffUsers.id, userId));
    await recordAudit(
      { actorId, action: 'staff.role_changed', target: { type: 'staff', id: userId }, details: { from: target.role, to: role } },
      tx,
    );
    // A viewer works on no request: what they held goes back to the queue.
    if (!can(role, 'verification:assign')) await releaseAssignments(tx, actorId, userId, 'staff_role_changed');
  });
  // Committed: the account's open sessions get the new role on their very next request, on
  // every instance.
  await forgetValidatedSessions(db);
}

/**
 * Hands back every request `userId` was assigned to, in `tx` (the change that makes them unable to
 * work on it): each becomes unassigned, with an audit entry of ids saying why, and a live event so
 * open pages stop showing them as its assignee. Written here rather than by the assignment room,
 * which stands above staff accounts; the rule is the same one-statement change of the register row.
 */
async function releaseAssignments(tx: Tx, actorId: string | null, userId: string, reason: 'staff_disabled' | 'staff_role_changed') {
  const released = await tx
    .update(verificationRequests)
    .set({ assignedTo: null, assignedAt: null })
    .where(eq(verificationRequests.assignedTo, userId))
    .returning({ verificationId: verificationRequests.verificationId, status: verificationRequests.status });
  await recordAudits(
    released.map(({ verificationId }) => ({
      actorId,
      action: 'verification.unassigned' as const,
      target: { type: 'verification' as const, id: verificationId },
      details: { previous: userId, reason },
    })),
    tx,
  );
  for (const { verificationId, status } of released) await publishVerificationChange({ verificationId, status }, tx);
}

/** Disables an account, ends all its sessions at once, and hands back the requests it held. */
export async function disableStaff(actorId: string | null, userId: string): Promise<void> {
  if (actorId === userId) throw new StaffError('You cannot disable your own account.');
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [target] = await tx.select({ disabled: staffUsers.disabled }).from(staffUsers).where(eq(staffUsers.id, userId));
    if (!target) throw new StaffError('That account does not exist.');
    if (target.disabled) return;
    await assertNotLastAdmin(tx, userId);
    await tx.update(staffUsers).set({ disabled: true, updatedAt: new Date() }).where(eq(staffUsers.id, userId));
    await tx.delete(staffSessions).where(eq(staffSessions.userId, userId));
    await recordAudit({ actorId, action: 'staff.disabled', target: { type: 'staff', id: userId } }, tx);
    await releaseAssignments(tx, actorId, userId, 'staff_disabled');
  });
  // Committed: the account's sessions and live streams end now on every instance, not when a
  // cached validation or a stream's periodic check runs out.
  await forgetValidatedSessions(db);
}

/**
 * Lets a disabled account sign in again. Nothing else comes back: the sessions it had ended when
 * it was disabled, so the person signs in afresh.
 */
export async function enableStaff(actorId: string | null, userId: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [target] = await tx.select({ disabled: staffUsers.disabled }).from(staffUsers).where(eq(staffUsers.id, userId)).for('update');
    if (!target) throw new StaffError('That account does not exist.');
    if (!target.disabled) return;
    await tx.update(staffUsers).set({ disabled: false, updatedAt: new Date() }).where(eq(staffUsers.id, userId));
    await recordAudit({ actorId, action: 'staff.enabled', target: { type: 'staff', id: userId } }, tx);
  });
}
