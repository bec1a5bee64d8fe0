import { useInfiniteQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import { userState } from '../../state/user';
import { notificationsQuery } from './queries';

/** The alerts and this admin's unread count; nothing is asked for a normal user or while signed out. */
export function useNotifications() {
  const { token, userData } = useSnapshot(userState);
  return useInfiniteQuery({ ...notificationsQuery, enabled: Boolean(token) && userData?.admin === true });
}
