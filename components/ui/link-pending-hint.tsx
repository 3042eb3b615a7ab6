'use client';
// A small spinner inside a <Link> while the navigation it started is under way. The detail page
// has no loading.tsx on purpose: a route skeleton makes React hold the real page back for at
// least 300 ms after the skeleton appears (its fallback throttle), however fast the server
// rendered it. Without it the current page stays until the next one is ready (or, for a detail
// page whose service is slow, until it sends its own waiting state), and this hint is the
// feedback. It fades in only after 150 ms, so fast navigations never flash it.
import { Loader2 } from 'lucide-react';
import { useLinkStatus } from 'next/link';
import { cn } from '@/lib/utils';

export function LinkPendingHint({ className }: { className?: string }) {
  const { pending } = useLinkStatus();
  if (!pending) return null;
  return (
    <Loader2
      aria-hidden="true"
      data-testid="link-pending"
      className={cn('inline size-4 animate-spin transition-opacity delay-150 duration-200 starting:opacity-0', className)}
    />
  );
}
