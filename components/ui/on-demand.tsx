'use client';
// A client component whose code is its own chunk, fetched the first time something renders it.
// For parts that only some pages or rare states show: the chunk is not in any page's first load
// until a page actually needs it.
//
// Deliberately no Suspense boundary of its own (and not next/dynamic, whose loader adds more to
// the first load than these parts weigh). Without a boundary, the server waits for the part
// before sending the HTML around it: the page is complete without JavaScript, a form included.
// In the browser, hydration of that stretch waits for the chunk, the server's HTML staying on
// screen meanwhile, and a render the router starts (a navigation, a refresh) keeps the previous
// screen until the chunk is there. So only render these from server components, or behind a
// transition: a plain state update that first shows one would suspend the nearest boundary.
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export function onDemand<Props extends object>(load: () => Promise<ComponentType<Props>>): LazyExoticComponent<ComponentType<Props>> {
  return lazy(async () => ({ default: await load() }));
}
