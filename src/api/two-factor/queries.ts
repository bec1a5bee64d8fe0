import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { twoFactorApi } from './endpoints';

/** GET /api/me/2fa: the signed-in account's factors. */
export const twoFactorQuery = queryOptions({ queryKey: ['me', '2fa'], queryFn: () => call(twoFactorApi.status).then((r) => r.data) });
