'use client';
// Copies a piece of text (a key, a list of codes) and says so; where the clipboard is refused,
// says how to copy by hand instead. Nothing is recorded: the text is the person's own.
import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useClientTranslations } from '@/components/i18n/client-messages';
import { Button } from '@/components/ui/button';

export function CopyTextButton({ text, label, copiedMessage }: { text: string; label: string; copiedMessage: string }) {
  const t = useClientTranslations('account.twoFactor.copy');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    timer.current = setTimeout(() => setState('idle'), 2500);
  }

  return (
    <>
      <Button variant="secondary" size="sm" onClick={copy}>
        {state === 'copied' ? (
          <Check aria-hidden="true" className="size-4 text-emerald-600" />
        ) : (
          <Copy aria-hidden="true" className="size-4" />
        )}
        {state === 'copied' ? t('copied') : label}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied' ? copiedMessage : state === 'failed' ? t('failed') : ''}
      </span>
    </>
  );
}
