// Where a sign-in that was not on its way elsewhere ends, decided in the server action that signed
// the person in: the action knows who it is, and sending them to their first page straight away
// spares the browser a round trip through /start (whose redirect, met during a client navigation,
// lands only after the dashboard's frame has been drawn).
import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db';
import { staffUsers } from '@/lib/db/schema';
import { HOME_PATH, landingPathFor } from './landing';
import { isStaffRole } from './roles';

/** `returnTo` when the sign-in was going somewhere; else the first page of `userId`'s role. */
export async function landingAfterSignIn(userId: string, returnTo: string): Promise<string> {
  if (returnTo !== HOME_PATH) return returnTo;
  const db = await getDb();
  const [row] = await db.select({ role: staffUsers.role }).from(staffUsers).where(eq(staffUsers.id, userId));
  return row && isStaffRole(row.role) ? landingPathFor(row.role) : HOME_PATH;
}
