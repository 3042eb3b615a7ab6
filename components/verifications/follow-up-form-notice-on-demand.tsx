'use client';
// The create form's follow-up notice, fetched only when the form follows up a request
// (components/ui/on-demand.tsx): most forms start empty, and the notice is not in their first load.
import { onDemand } from '@/components/ui/on-demand';

export const FollowUpFormNotice = onDemand(() => import('./follow-up-form-notice').then((module) => module.FollowUpFormNotice));
