import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { leadsKey } from '../leads/queries';
import { viewsApi } from './endpoints';

/**
 * GET /api/views: the sidebar's saved views and the palette's, each with its live count. Under the
 * leads' key: whatever reloads the leads after a change (an action, an import) recounts the views.
 */
export const viewsQuery = queryOptions({
  queryKey: [...leadsKey, 'views'],
  queryFn: () => call(viewsApi.list).then((r) => r.data),
  staleTime: 30_000,
});
