// The browser's React Query client: one per tab, created on first use, so the cache survives
// client-side navigation between pages that mount a provider. Never used on the server (a
// module-level cache there would be shared between users): server components don't render it,
// and during server rendering of a client component a fresh client is returned each time.
import { QueryClient } from '@tanstack/react-query';

let browserClient: QueryClient | undefined;

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Server-rendered data is fresh on arrival; refetch when staff come back to the tab.
        staleTime: 30_000,
        refetchOnWindowFocus: true,
        retry: false,
      },
    },
  });
}

export function getBrowserQueryClient(): QueryClient {
  if (typeof window === 'undefined') return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
