'use client';
// Client-side providers. One QueryClient per browser session (created in state, so a
// re-render never replaces it and no cache is shared between users on the server).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            // Server-rendered data is fresh on arrival; refetch when staff come back to the tab.
            staleTime: 30_000,
            refetchOnWindowFocus: true,
            retry: false,
          },
        },
      }),
  );
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
