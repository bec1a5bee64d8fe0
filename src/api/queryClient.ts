import { QueryClient, type FetchQueryOptions, type QueryKey } from '@tanstack/react-query';
import { ApiError } from './client';

/** A 4xx will not get better by asking again; network hiccups and 5xx get `times` more tries. */
export const retryUnlessRefused = (times: number) => (count: number, error: Error) =>
  count < times && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: retryUnlessRefused(1),
      refetchOnWindowFocus: false,
    },
  },
});

/**
 * The server's answer now, for a command that acts on the state it reads: a request already under
 * way may have left before the user's last change, so it is cancelled and sent again.
 */
export async function fetchNow<TData, TKey extends QueryKey>(options: FetchQueryOptions<TData, Error, TData, TKey>): Promise<TData> {
  await queryClient.cancelQueries({ queryKey: options.queryKey, exact: true });
  return queryClient.fetchQuery({ ...options, staleTime: 0 });
}
