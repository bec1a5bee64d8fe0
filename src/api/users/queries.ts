import { queryOptions } from '@tanstack/react-query';
import type { User } from '../auth/contract';
import { api } from '../client';

/** GET /api/users: every account, by name (the accounts table and the palette's users). */
export const usersQuery = queryOptions({ queryKey: ['users'], queryFn: () => api<User[]>('/users'), staleTime: 30_000 });
