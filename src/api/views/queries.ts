import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { viewsApi } from './endpoints';

/** GET /api/views: the sidebar's saved views and the palette's, each with its live count. */
export const viewsQuery = queryOptions({ queryKey: ['views'], queryFn: () => call(viewsApi.list).then((r) => r.data), staleTime: 30_000 });
