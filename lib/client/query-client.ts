import { QueryClient } from "@tanstack/react-query";

/**
 * The one way to make a QueryClient (STYLE.md habit 12). Staff pages poll or stream their own freshness, so
 * a window regaining focus does not refetch everything, and a failed read is retried twice, not three times,
 * so a proctor sees the error sooner.
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, retry: 2, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
