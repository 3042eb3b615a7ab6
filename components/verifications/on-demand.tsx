'use client';
// Client parts of the detail page that only some records show: the name review (a completed
// request whose names differ), the copy button (a pending request with a shareable link) and the
// lookup form (a record that could not be read). Each is its own chunk, fetched the first time a
// page renders it, so the usual visit (a pending request, no link) does not download them.
//
// React.lazy with no Suspense boundary of its own: the server waits for the part before sending
// the HTML around it, so the page is complete and its forms work without JavaScript; in the
// browser, hydration of that stretch waits for the chunk with the server's HTML on screen, and a
// render the router starts (a navigation, a refresh) keeps the previous screen meanwhile. So only
// render these from server components, or in a transition. Each export is a plain function
// component: server components refer to them, and a lazy object does not work as such a reference.
import { type ComponentProps, lazy } from 'react';

const LazyNameReviewPanel = lazy(() => import('./name-review-panel').then((module) => ({ default: module.NameReviewPanel })));
const LazyCopyLinkButton = lazy(() => import('./copy-link-button').then((module) => ({ default: module.CopyLinkButton })));
const LazyLookupForm = lazy(() => import('./lookup-form').then((module) => ({ default: module.LookupForm })));

export function NameReviewPanel(props: ComponentProps<typeof LazyNameReviewPanel>) {
  return <LazyNameReviewPanel {...props} />;
}

export function CopyLinkButton(props: ComponentProps<typeof LazyCopyLinkButton>) {
  return <LazyCopyLinkButton {...props} />;
}

export function LookupForm(props: ComponentProps<typeof LazyLookupForm>) {
  return <LazyLookupForm {...props} />;
}
