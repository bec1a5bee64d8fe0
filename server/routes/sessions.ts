import type { FastifyInstance } from 'fastify';
import { endOthersResponse, endSessionResponse, sessionsResponse } from '../../src/api/sessions/contract';
import { currentUser } from '../context';
import { bearerToken } from '../plugins/auth';
import { endOtherSessions, endSession, listSessions } from '../services/auth/my-sessions';
import { pathId } from '../route-params';

export default async function sessionsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/me/sessions', { config: { auth: 'user', response: sessionsResponse } }, async (req) => ({
    data: await listSessions(db, currentUser(req).id, bearerToken(req)!),
  }));

  app.delete<{ Params: { id: string } }>('/api/me/sessions/:id', { config: { auth: 'user', response: endSessionResponse } }, async (req) => {
    await endSession(db, currentUser(req).id, pathId(req.params.id, 'Session introuvable'));
    return { data: true as const };
  });

  app.post('/api/me/sessions/end-others', { config: { auth: 'user', response: endOthersResponse } }, async (req) => ({
    data: { count: await endOtherSessions(db, currentUser(req).id, bearerToken(req)!) },
  }));
}
