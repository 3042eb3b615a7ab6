'use client';
// The dashboard layout's database-down page, fetched only when a page shows it: the layout's
// code counts in every page's first load, and this state is rare. The server renders it all the
// same, so the explanation is in the HTML (components/ui/on-demand.tsx).
import { onDemand } from '@/components/ui/on-demand';

export const DatabaseUnavailable = onDemand(() => import('./database-unavailable').then((module) => module.DatabaseUnavailable));
