// An administrator's reset of a colleague's second factor, for a lost phone: the secret and
// backup codes go, the account signs in with its password alone again (or is sent to enrol at
// once under REQUIRE_2FA), and every session it has ends, on every instance. Audited with ids.
import 'server-only';
import { eq } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import { getDb } from '@/lib/db';
import { staffSessions, staffTwoFactors, staffUsers } from '@/lib/db/schema';
import { forgetValidatedSessions } from '../session-cache';
import { StaffError } from '../staff-records';

export async function resetTwoFactor(actorId: string, userId: string): Promise<void> {
  // One's own second factor is changed on one's own two-factor page, with the password.
  if (actorId === userId) throw new StaffError('You cannot reset your own second factor here: use your two-factor page.');
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [target] = await tx.select({ twoFactorEnabled: staffUsers.twoFactorEnabled }).from(staffUsers).where(eq(staffUsers.id, userId));
    if (!target) throw new StaffError('That account does not exist.');
    const removed = await tx.delete(staffTwoFactors).where(eq(staffTwoFactors.userId, userId)).returning({ id: staffTwoFactors.id });
    if (!target.twoFactorEnabled && removed.length === 0) throw new StaffError('They have no second factor to reset.');
    await tx.update(staffUsers).set({ twoFactorEnabled: false, updatedAt: new Date() }).where(eq(staffUsers.id, userId));
    await tx.delete(staffSessions).where(eq(staffSessions.userId, userId));
    await recordAudit({ actorId, action: 'two_factor.reset', target: { type: 'staff', id: userId } }, tx);
  });
  // Committed: their sessions end now on every instance, not when a cached validation runs out.
  await forgetValidatedSessions(db);
}
