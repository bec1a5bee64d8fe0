import { infiniteQueryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { notificationsApi } from './endpoints';

/** GET /api/notifications, page after page (20 each, newest first): the bell's count and list, read again on each `notification` event (src/api/events/invalidations.ts). */
export const notificationsQuery = infiniteQueryOptions({
  queryKey: ['notifications'],
  queryFn: ({ pageParam }) => call(notificationsApi.list, { query: pageParam === null ? {} : { before: pageParam } }),
  initialPageParam: null as number | null,
  getNextPageParam: (page) => page.next_before,
});
