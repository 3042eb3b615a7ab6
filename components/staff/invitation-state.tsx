// Where a colleague's invitation stands, on their staff row: waiting (until when) or expired.
// Nothing is shown once they have set their password (no unused invitation is left then).
import { useLocale, useTranslations } from 'next-intl';
import { TimeText } from '@/components/ui/time-text';
import { isLanguage } from '@/lib/i18n/languages';
import type { PendingInvitation } from '@/lib/staff/invitations/invitations.server';

export function InvitationState({ invitation, timeZone }: { invitation: PendingInvitation | undefined; timeZone: string }) {
  const t = useTranslations('staff.page');
  const locale = useLocale();
  if (!invitation) return null;
  if (invitation.expired) {
    return (
      <div className="mt-1 text-sm font-medium text-amber-800" data-testid="invitation-state">
        {t('invitationExpired')}
      </div>
    );
  }
  return (
    <div className="mt-1 text-sm text-slate-600" data-testid="invitation-state">
      {t.rich('invited', {
        time: () => (
          <TimeText iso={invitation.expiresAt.toISOString()} timeZone={timeZone} language={isLanguage(locale) ? locale : undefined} />
        ),
      })}
    </div>
  );
}
