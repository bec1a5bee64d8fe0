import { queryOptions } from '@tanstack/react-query';
import { api } from '../client';
import type { TwoFactorStatus } from './contract';

/** GET /api/me/2fa: the signed-in account's factors. */
export const twoFactorQuery = queryOptions({ queryKey: ['me', '2fa'], queryFn: () => api<TwoFactorStatus>('/me/2fa') });
