import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { retryUnlessRefused } from '../queryClient';
import { authApi } from './endpoints';

/**
 * GET /api/me: the signed-in user of this token. The shell waits for it, so a network hiccup or a
 * 5xx gets three more tries (1, 2 and 4 s apart) before the shell says so and offers to retry.
 */
export const meQuery = (token: string | null) =>
  queryOptions({
    queryKey: ['me', token],
    queryFn: () => call(authApi.me).then((r) => r.data),
    staleTime: 60_000,
    retry: retryUnlessRefused(3),
  });
