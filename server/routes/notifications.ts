import type { FastifyInstance } from 'fastify';
import { notificationsApi } from '../../src/api/notifications/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { listNotifications, markRead } from '../services/alerts/list';

export default async function notificationsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, notificationsApi.list, async (req) => listNotifications(db, currentUser(req).id, req.query));

  route(app, notificationsApi.read, async (req) => markRead(db, currentUser(req).id, req.body));
}
