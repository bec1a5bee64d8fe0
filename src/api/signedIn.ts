import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { userState } from '../state/user';

/**
 * useQuery for calls that need the session: it waits for a token (no request, no error while
 * signed out) and keeps the options' own `enabled` condition.
 */
export function useSignedInQuery<TData, TError = Error, TSelected = TData, TKey extends QueryKey = QueryKey>(
  options: UseQueryOptions<TData, TError, TSelected, TKey>,
) {
  const { token } = useSnapshot(userState);
  return useQuery({ ...options, enabled: Boolean(token) && options.enabled !== false });
}
