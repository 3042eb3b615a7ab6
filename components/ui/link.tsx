'use client';
// The dashboard's <Link>: prefetches a page when staff reach for its link (pointer over it, focus,
// touch), not whenever it scrolls into view. Next's default prefetches every link on screen: the
// navigation and a register of fifty rows make each page view cost dozens of server renders, each
// with a session check, for pages nobody opens. Reaching for a link comes a few hundred
// milliseconds before the click, which is most of what a prefetch can win.
import NextLink from 'next/link';
import { type ComponentProps, useState } from 'react';

export function Link({ prefetch, onMouseEnter, onFocus, onTouchStart, ...props }: ComponentProps<typeof NextLink>) {
  const [reachedFor, setReachedFor] = useState(false);
  const reach = () => setReachedFor(true);
  return (
    <NextLink
      {...props}
      // null is Next's automatic prefetch; an explicit false from the caller stays false.
      prefetch={prefetch === false || !reachedFor ? false : (prefetch ?? null)}
      onMouseEnter={(event) => {
        reach();
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        reach();
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        reach();
        onTouchStart?.(event);
      }}
    />
  );
}
