'use client';
// Client parts of the detail page that only some records show: the name review (a completed
// request whose names differ), the copy button (a pending request with a shareable link) and the
// lookup form (a record that could not be read). Each is its own chunk, fetched only when a page
// renders it (components/ui/on-demand.tsx), so the usual visit — a pending request, no link —
// does not download them. The server renders them all the same: the HTML is complete, and
// their forms work before the chunk arrives and without JavaScript.
import { onDemand } from '@/components/ui/on-demand';

export const NameReviewPanel = onDemand(() => import('./name-review-panel').then((module) => module.NameReviewPanel));

export const CopyLinkButton = onDemand(() => import('./copy-link-button').then((module) => module.CopyLinkButton));

export const LookupForm = onDemand(() => import('./lookup-form').then((module) => module.LookupForm));
