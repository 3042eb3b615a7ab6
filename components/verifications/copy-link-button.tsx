'use client';
import { Check, Copy } from 'lucide-react';
// Copies a shareable link (or another text, such as an id: `subject` names it) to the
// clipboard and says so. Where the Clipboard API is refused (insecure origin, permissions), it
// selects the text in its input, if it has one, so the user can copy it by hand.
import { useEffect, useRef, useState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Button } from '@/components/ui/button';
import { recordLinkCopiedAction } from '@/lib/verifications/create/actions';

type CopyState = 'idle' | 'copied' | 'failed';

export function CopyLinkButton({
  link,
  verificationId,
  fallbackInputId,
  label,
  accessibleLabel,
  size = 'md',
  onCopied,
  subject = 'link',
}: {
  /** The text copied: a link, unless `subject` says otherwise. */
  link: string;
  /** The verification the link belongs to, if any: each copy of such a link is recorded in the audit trail. */
  verificationId?: string;
  /** The id of an input showing the link, selected when copying is not allowed. */
  fallbackInputId?: string;
  label?: string;
  /** What a screen reader hears when the visible label is ambiguous (e.g. one per table row). */
  accessibleLabel?: string;
  size?: 'sm' | 'md';
  onCopied?: () => void;
  /** What is copied, in the messages ("link", "id"). */
  subject?: 'link' | 'id';
}) {
  // Its words come from the create.copy catalog: a page showing this button hands it down.
  const t = useClientTranslations('create.copy');
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(link);
      setState('copied');
      onCopied?.();
      if (verificationId) void recordLinkCopiedAction(verificationId).catch(() => undefined);
    } catch {
      setState('failed');
      const input = fallbackInputId ? document.getElementById(fallbackInputId) : null;
      if (input instanceof HTMLInputElement) input.select();
    }
    timer.current = setTimeout(() => setState('idle'), 2500);
  }

  return (
    <>
      <Button
        variant="secondary"
        size={size}
        onClick={copy}
        aria-label={state === 'copied' ? t(`${subject}.copied`) : (accessibleLabel ?? label ?? t('copyLink'))}
      >
        {state === 'copied' ? (
          <Check aria-hidden="true" className="size-4 text-emerald-600" />
        ) : (
          <Copy aria-hidden="true" className="size-4" />
        )}
        {state === 'copied' ? t('copied') : (label ?? t('copyLink'))}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied'
          ? t(`${subject}.copiedStatus`)
          : state === 'failed'
            ? fallbackInputId
              ? t(`${subject}.failedSelected`)
              : t(`${subject}.failedSelect`)
            : ''}
      </span>
    </>
  );
}
