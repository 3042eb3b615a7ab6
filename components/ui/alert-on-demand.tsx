'use client';
// The boxed message for client components that show one only in some states (a refusal, a
// follow-up, a warning about the switches): its code, with its icons, is fetched the first time
// one is shown (components/ui/on-demand.tsx) instead of in the page's first load.
import { type ComponentProps, Suspense } from 'react';
import { onDemand } from './on-demand';

export const Alert = onDemand(() => import('./alert').then((module) => module.Alert));

/**
 * For an alert that a state change in the browser brings up, never rendered on the server:
 * nothing shows until its code has arrived (a moment, once), rather than the nearest boundary
 * suspending the page around it.
 */
export function BrowserAlert(props: ComponentProps<typeof Alert>) {
  return (
    <Suspense fallback={null}>
      <Alert {...props} />
    </Suspense>
  );
}
