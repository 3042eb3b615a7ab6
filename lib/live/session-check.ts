// Whether a live stream's session still holds, asked periodically by app/api/events while the
// stream stays open (possibly for hours).
import 'server-only';
import { getCliAuth } from '@/lib/auth/auth';
import { can, isStaffRole } from '@/lib/auth/roles';

/**
 * True while the session `sessionId` (sent in `headers`) exists, has not expired, and belongs to
 * an enabled account allowed to read verifications.
 */
export async function streamSessionStillValid(headers: Headers, sessionId: string): Promise<boolean> {
  // The instance that never writes cookies: this is a read, and the recheck may run inside
  // another request's context (on the embedded store a sessions-changed notice reaches the
  // watchers within the writer's await). Through the Next.js instance, a session the writer had
  // just replaced would be "cleared" in the writer's own response, signing its person out.
  const auth = await getCliAuth();
  // disableRefresh: an open tab is not activity. Refreshing here would keep an idle session
  // alive for as long as a tab stays open, defeating SESSION_IDLE_HOURS.
  const session = await auth.api.getSession({ headers, query: { disableRefresh: true } });
  if (!session || session.session.id !== sessionId) return false;
  const user = session.user as typeof session.user & { role?: unknown; disabled?: unknown };
  return user.disabled !== true && isStaffRole(user.role) && can(user.role, 'verification:read');
}
