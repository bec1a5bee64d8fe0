import { infiniteQueryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { notificationsApi } from './endpoints';

/** How often the bell asks for new alerts while the window is open (it also asks when the window regains focus: NotificationsBell). */
const REFRESH_MS = 60_000;

/** GET /api/notifications, page after page (20 each, newest first): the bell's count and list. */
export const notificationsQuery = infiniteQueryOptions({
  queryKey: ['notifications'],
  queryFn: ({ pageParam }) => call(notificationsApi.list, { query: pageParam === null ? {} : { before: pageParam } }),
  initialPageParam: null as number | null,
  getNextPageParam: (page) => page.next_before,
  refetchInterval: REFRESH_MS,
});
