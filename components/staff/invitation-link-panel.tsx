'use client';
// An invitation link, shown once to the administrator who issued it: the link in a read-only
// field (selectable by hand where the clipboard is refused), a copy button, and what to do with it.
import { Fragment, type ReactNode } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { LocalTime } from '@/components/ui/local-time';
import { CopyLinkButton } from '@/components/verifications/copy-link-button';

/**
 * A client message with elements in place of its {placeholders}: the sentence keeps its own
 * order in every language, and the address and the time keep their markup.
 */
function withElements(message: string, elements: Record<string, ReactNode>): ReactNode[] {
  return message.split(/\{(\w+)\}/).map((part, index) =>
    // Odd parts are the placeholders' names.
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence, never reordered.
    index % 2 === 1 ? <Fragment key={index}>{elements[part] ?? `{${part}}`}</Fragment> : part,
  );
}

export function InvitationLinkPanel({ id, link, email, expiresAt }: { id: string; link: string; email: string; expiresAt: string }) {
  const t = useClientTranslations('staff.invitationLink');
  return (
    <div className="space-y-2">
      <p>{withElements(t('send'), { email: <strong>{email}</strong>, time: <LocalTime iso={expiresAt} /> })}</p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="sr-only">
          {t('label', { email })}
        </label>
        <input
          id={id}
          readOnly
          value={link}
          data-testid="invitation-link"
          className="min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyLinkButton link={link} fallbackInputId={id} label={t('copy')} accessibleLabel={t('copyFor', { email })} size="sm" />
      </div>
    </div>
  );
}
