import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { usersApi } from './endpoints';

/** GET /api/users: every account, by name (the accounts table and the palette's users). */
export const usersQuery = queryOptions({ queryKey: ['users'], queryFn: () => call(usersApi.list).then((r) => r.data), staleTime: 30_000 });
