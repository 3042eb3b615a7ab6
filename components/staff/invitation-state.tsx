// Where a colleague's invitation stands, on their staff row: waiting (until when) or expired.
// Nothing is shown once they have set their password (no unused invitation is left then).
import { LocalTime } from '@/components/ui/local-time';
import type { PendingInvitation } from '@/lib/staff/invitations/invitations.server';

export function InvitationState({ invitation }: { invitation: PendingInvitation | undefined }) {
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
      Invited — link expires <LocalTime iso={invitation.expiresAt.toISOString()} />
    </div>
  );
}
