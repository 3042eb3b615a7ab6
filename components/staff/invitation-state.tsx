// Where a colleague's invitation stands, on their staff row: waiting (until when) or expired.
// Nothing is shown once they have set their password (no unused invitation is left then).
import { TimeText } from '@/components/ui/time-text';
import type { PendingInvitation } from '@/lib/staff/invitations/invitations.server';

export function InvitationState({ invitation, timeZone }: { invitation: PendingInvitation | undefined; timeZone: string }) {
  if (!invitation) return null;
  if (invitation.expired) {
    return (
      <div className="mt-1 text-sm font-medium text-amber-800" data-testid="invitation-state">
        Invitation expired — issue a new link
      </div>
    );
  }
  return (
    <div className="mt-1 text-sm text-slate-600" data-testid="invitation-state">
      Invited — link expires <TimeText iso={invitation.expiresAt.toISOString()} timeZone={timeZone} />
    </div>
  );
}
