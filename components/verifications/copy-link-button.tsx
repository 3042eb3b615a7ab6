'use client';
import { Check, Copy } from 'lucide-react';
// Copies a shareable link to the clipboard and says so. Where the Clipboard API is refused
// (insecure origin, permissions), it selects the link text so the user can copy it by hand.
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { recordLinkCopiedAction } from '@/lib/verifications/actions';

type CopyState = 'idle' | 'copied' | 'failed';

export function CopyLinkButton({
  link,
  verificationId,
  fallbackInputId,
  label = 'Copy link',
  accessibleLabel,
  size = 'md',
  onCopied,
}: {
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
}) {
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
      <Button variant="secondary" size={size} onClick={copy} aria-label={state === 'copied' ? 'Link copied' : (accessibleLabel ?? label)}>
        {state === 'copied' ? (
          <Check aria-hidden="true" className="size-4 text-emerald-600" />
        ) : (
          <Copy aria-hidden="true" className="size-4" />
        )}
        {state === 'copied' ? 'Copied' : label}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied'
          ? 'Link copied to the clipboard'
          : state === 'failed'
            ? 'Copying was not allowed; the link is selected, press Ctrl+C to copy it'
            : ''}
      </span>
    </>
  );
}
