'use client';
// The boxed message for client components that show one only in some states (a refusal, a
// follow-up, a warning about the switches): its code, with its icons, is fetched the first time
// one is shown instead of in the page's first load. React.lazy with no boundary of its own (as in
// components/verifications/on-demand.tsx): the server renders it in full.
import { type ComponentProps, lazy, Suspense } from 'react';

const LazyAlert = lazy(() => import('./alert').then((module) => ({ default: module.Alert })));

export function Alert(props: ComponentProps<typeof LazyAlert>) {
  return <LazyAlert {...props} />;
}

/**
 * For an alert that a state change in the browser brings up, never rendered on the server:
 * nothing shows until its code has arrived (a moment, once), rather than the nearest boundary
 * suspending the page around it.
 */
export function BrowserAlert(props: ComponentProps<typeof LazyAlert>) {
  return (
    <Suspense fallback={null}>
      <LazyAlert {...props} />
    </Suspense>
  );
}
