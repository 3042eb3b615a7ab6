'use client';
// The create form's follow-up notice, fetched only when the form follows up a request: most forms
// start empty, and the notice is not in their first load. React.lazy with no boundary of its own
// (as in components/verifications/on-demand.tsx): the server renders it in full.
import { type ComponentProps, lazy } from 'react';

const LazyFollowUpFormNotice = lazy(() => import('./follow-up-form-notice').then((module) => ({ default: module.FollowUpFormNotice })));

export function FollowUpFormNotice(props: ComponentProps<typeof LazyFollowUpFormNotice>) {
  return <LazyFollowUpFormNotice {...props} />;
}
