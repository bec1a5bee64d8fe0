import { queryOptions } from '@tanstack/react-query';
import { api } from '../client';
import type { User } from './contract';

/** GET /api/me: the signed-in user of this token. */
export const meQuery = (token: string | null) => queryOptions({ queryKey: ['me', token], queryFn: () => api<User>('/me'), staleTime: 60_000 });
