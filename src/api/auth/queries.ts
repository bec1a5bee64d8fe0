import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { authApi } from './endpoints';

/** GET /api/me: the signed-in user of this token. */
export const meQuery = (token: string | null) =>
  queryOptions({ queryKey: ['me', token], queryFn: () => call(authApi.me).then((r) => r.data), staleTime: 60_000 });
