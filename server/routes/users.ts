import type { FastifyInstance } from 'fastify';
import { inviteResponse, userActionResponse, usersResponse } from '../../src/api/users/contract';
import { currentUser } from '../context';
import { reinvite } from '../services/accounts';
import { deleteUser, listUsers, toggleAdmin, userNotFound } from '../services/users';
import { pathId } from '../route-params';

export default async function usersRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/users', { config: { auth: 'admin', response: usersResponse } }, async () => ({ data: await listUsers(db) }));

  app.post<{ Params: { id: string } }>('/api/users/admin/:id', { config: { auth: 'admin', response: userActionResponse } }, async (req) => {
    const user = await toggleAdmin(db, pathId(req.params.id, userNotFound), currentUser(req).id);
    return { data: user, message: 'Rôle modifié' };
  });

  app.post<{ Params: { id: string } }>('/api/users/:id/invite', { config: { auth: 'admin', response: inviteResponse } }, async (req) => {
    const account = await reinvite(app.ctx, currentUser(req).id, pathId(req.params.id, userNotFound));
    return { data: account, message: 'Invitation envoyée' };
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id', { config: { auth: 'admin', response: userActionResponse } }, async (req) => {
    const user = await deleteUser(db, pathId(req.params.id, userNotFound), currentUser(req).id);
    return { data: user, message: 'Utilisateur supprimé' };
  });
}
