import { defineEndpoint } from '../endpoint';
import { notificationsQuery, notificationsReadRequest, notificationsReadResponse, notificationsResponse } from './contract';

export const notificationsApi = {
  list: defineEndpoint({
    method: 'GET',
    path: '/api/notifications',
    auth: 'admin',
    query: notificationsQuery,
    response: notificationsResponse,
    summary: 'The alerts, newest first and paged, with this admin’s unread count',
  }),
  read: defineEndpoint({
    method: 'POST',
    path: '/api/notifications/read',
    auth: 'admin',
    body: notificationsReadRequest,
    response: notificationsReadResponse,
    summary: 'Marks some alerts ({ ids }) or all of them ({ all: true }) read for this admin',
  }),
};
