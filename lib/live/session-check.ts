// Whether a live stream's session still holds, asked periodically by app/api/events while the
// stream stays open (possibly for hours).
import 'server-only';
import { getAuth } from '@/lib/auth/auth';
import { can, isStaffRole } from '@/lib/auth/roles';

/**
 * True while the session `sessionId` (sent in `headers`) exists, has not expired, and belongs to
 * an enabled account allowed to read verifications.
 */
export async function streamSessionStillValid(headers: Headers, sessionId: string): Promise<boolean> {
  const auth = await getAuth();
  // disableRefresh: an open tab is not activity. Refreshing here would keep an idle session
  // alive for as long as a tab stays open, defeating SESSION_IDLE_HOURS.
  const session = await auth.api.getSession({ headers, query: { disableRefresh: true } });
  if (!session || session.session.id !== sessionId) return false;
  const user = session.user as typeof session.user & { role?: unknown; disabled?: unknown };
  return user.disabled !== true && isStaffRole(user.role) && can(user.role, 'verification:read');
}
