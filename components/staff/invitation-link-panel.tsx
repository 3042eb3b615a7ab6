'use client';
import { LocalTime } from '@/components/ui/local-time';
// An invitation link, shown once to the administrator who issued it: the link in a read-only
// field (selectable by hand where the clipboard is refused), a copy button, and what to do with it.
import { CopyLinkButton } from '@/components/verifications/copy-link-button';

export function InvitationLinkPanel({ id, link, email, expiresAt }: { id: string; link: string; email: string; expiresAt: string }) {
  return (
    <div className="space-y-2">
      <p>
        Send this link to <strong>{email}</strong> yourself; it works once, until <LocalTime iso={expiresAt} />. It is shown only now.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="sr-only">
          Invitation link for {email}
        </label>
        <input
          id={id}
          readOnly
          value={link}
          data-testid="invitation-link"
          className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyLinkButton link={link} fallbackInputId={id} label="Copy link" accessibleLabel={`Copy link to invite ${email}`} size="sm" />
      </div>
    </div>
  );
}
