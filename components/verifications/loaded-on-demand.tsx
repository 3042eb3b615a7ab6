'use client';
// Client parts of the detail page whose code stays out of the page's first load and is fetched
// when one is rendered: the lookup form of a problem page (an id that cannot be shown) and the
// review form of a name mismatch, which most visits never show, and the case-work forms (who is
// on it, and the note form below the history): with them in the first load, the page's JavaScript
// passed the 150 KB budget. Their HTML comes with the page, so they read and post without it.
//
// React.lazy rather than next/dynamic: next/dynamic's own runtime weighs about as much as the
// forms it would defer. As next/dynamic does when rendered on the server, no Suspense boundary is
// put around them: the server waits for their code and sends them in the page's HTML (so they work
// before the browser has it, and without JavaScript), and the browser's hydration waits for it
// rather than showing a fallback in their place.
import { type ComponentProps, lazy } from 'react';
import type { AssignmentPanel } from './assignment-panel';
import type { LookupFormFields } from './lookup-form-fields';
import type { NameReviewPanel } from './name-review-panel';
import type { NoteForm } from './note-form';

const LazyLookupForm = lazy(() => import('./lookup-form-fields').then((module) => ({ default: module.LookupFormFields })));
const LazyNameReviewPanel = lazy(() => import('./name-review-panel').then((module) => ({ default: module.NameReviewPanel })));
const LazyAssignmentPanel = lazy(() => import('./assignment-panel').then((module) => ({ default: module.AssignmentPanel })));
const LazyNoteForm = lazy(() => import('./note-form').then((module) => ({ default: module.NoteForm })));

/** Its words (detail.lookup) come from the page that renders it (ClientMessagesFor). */
export function LookupFormOnDemand(props: ComponentProps<typeof LookupFormFields>) {
  return <LazyLookupForm {...props} />;
}

export function NameReviewPanelOnDemand(props: ComponentProps<typeof NameReviewPanel>) {
  return <LazyNameReviewPanel {...props} />;
}

/** Its words (detail.noteForm) come from the page that renders it (ClientMessagesFor). */
export function NoteFormOnDemand(props: ComponentProps<typeof NoteForm>) {
  return <LazyNoteForm {...props} />;
}

/** Its words (detail.assignment) come from the page that renders it (ClientMessagesFor). */
export function AssignmentPanelOnDemand(props: ComponentProps<typeof AssignmentPanel>) {
  return <LazyAssignmentPanel {...props} />;
}
