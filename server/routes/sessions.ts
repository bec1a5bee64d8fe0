import type { FastifyInstance } from 'fastify';
import { sessionsApi } from '../../src/api/sessions/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { bearerToken } from '../plugins/auth';
import { endOtherSessions, endSession, listSessions } from '../services/auth/my-sessions';
import { pathId } from '../route-params';

export default async function sessionsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, sessionsApi.list, async (req) => ({ data: await listSessions(db, currentUser(req).id, bearerToken(req)!) }));

  route(app, sessionsApi.end, async (req) => {
    await endSession(db, currentUser(req).id, pathId(req.params.id, 'Session introuvable'));
    return { data: true as const };
  });

  route(app, sessionsApi.endOthers, async (req) => ({ data: { count: await endOtherSessions(db, currentUser(req).id, bearerToken(req)!) } }));
}
