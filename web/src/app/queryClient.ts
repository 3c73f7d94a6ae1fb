import { QueryClient } from '@tanstack/react-query';

/**
 * The server state of the console screens (TanStack Query). No retries: the HTTP client has
 * already shown a failure (spec §8), a retry would only show it again. Nothing refetches on
 * focus: a list refreshes when its screen changes something, or on the refresh button.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
