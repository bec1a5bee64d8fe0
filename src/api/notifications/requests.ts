import { call } from '../client';
import type { NotificationsReadRequest } from './contract';
import { notificationsApi } from './endpoints';

/** POST /api/notifications/read: `{ ids }` or `{ all: true }`, read by this admin; answers the unread count left. */
export const markNotificationsRead = (body: NotificationsReadRequest) => call(notificationsApi.read, { body });
