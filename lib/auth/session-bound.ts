// Bounds how many live sessions one staff member holds. Each sign-in makes a session, and each
// session may hold live streams, refresh quotas and cached validations: without a bound, one
// account signing in again and again could hold any number of them. When a new session would
// take a person past the bound, their oldest sessions are ended (their cookies stop working on
// every instance at once) and the audit trail says how many.
//
// The database decides, in one statement, so the bound holds however many instances create
// sessions for the same person at the same moment: each sign-in deletes that person's live
// sessions beyond the newest, never its own.
import 'server-only';
import { and, desc, eq, gt, inArray, ne } from 'drizzle-orm';
import { recordAudit } from '@/lib/audit/audit';
import type { Db } from '@/lib/db';
import { staffSessions, staffUsers } from '@/lib/db/schema';
import { forgetValidatedSessions } from './session-cache';

/**
 * Live sessions per staff member, the new one included. Ten covers a person's browsers and
 * devices with room to spare (sessions end on sign-out or after SESSION_IDLE_HOURS idle), and with
 * at most this many sessions nobody can hold more than a small share of the process's live
 * streams and caches.
 */
export const SESSIONS_PER_STAFF_MEMBER = 10;

/**
 * Ends the oldest live sessions of `userId` beyond the newest SESSIONS_PER_STAFF_MEMBER, keeping
 * `newSessionId` whatever its age, and records `sessions.oldest_ended` when any ended. Returns how
 * many ended.
 */
export async function endSessionsBeyondBound(db: Db, userId: string, newSessionId: string, now = new Date()): Promise<number> {
  const ended = await db.transaction(async (tx) => {
    const mineLive = and(eq(staffSessions.userId, userId), ne(staffSessions.id, newSessionId), gt(staffSessions.expiresAt, now));
    // The others beyond the newest (bound - 1): with the new one, the bound's worth stays.
    const beyond = tx
      .select({ id: staffSessions.id })
      .from(staffSessions)
      .where(mineLive)
      .orderBy(desc(staffSessions.createdAt), desc(staffSessions.id))
      .offset(SESSIONS_PER_STAFF_MEMBER - 1);
    const deleted = await tx
      .delete(staffSessions)
      .where(and(mineLive, inArray(staffSessions.id, beyond)))
      .returning({ id: staffSessions.id });
    if (deleted.length > 0) {
      await recordAudit(
        { actorId: userId, action: 'sessions.oldest_ended', target: { type: 'staff', id: userId }, details: { count: deleted.length } },
        tx,
      );
    }
    return deleted.length;
  });
  // Committed: the ended sessions stop working now, on every instance, and their streams close.
  if (ended > 0) await forgetValidatedSessions(db);
  return ended;
}

/**
 * For better-auth's session `create.after` hook. A password sign-in of an account with a second
 * factor makes a session that better-auth deletes at once (the code is asked next, and its own
 * session is made then): that one does not count, so knowing the password alone ends nothing.
 */
export async function boundSessionsAfterCreate(
  db: Db,
  session: { id: string; userId: string },
  context: { path?: string } | null | undefined,
): Promise<void> {
  if (context?.path === '/sign-in/email') {
    const [user] = await db.select({ twoFactor: staffUsers.twoFactorEnabled }).from(staffUsers).where(eq(staffUsers.id, session.userId));
    if (user?.twoFactor) return;
  }
  await endSessionsBeyondBound(db, session.userId, session.id);
}
