import { queryOptions } from '@tanstack/react-query';
import { api } from '../client';
import type { Account } from './contract';

/** GET /api/users: every account, by name (the accounts table and the palette's users). */
export const usersQuery = queryOptions({ queryKey: ['users'], queryFn: () => api<Account[]>('/users'), staleTime: 30_000 });
