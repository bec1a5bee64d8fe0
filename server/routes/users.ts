import type { FastifyInstance } from 'fastify';
import { usersApi } from '../../src/api/users/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { reinvite } from '../services/accounts';
import { deleteUser, listUsers, toggleAdmin, userNotFound } from '../services/users';
import { pathId } from '../route-params';

export default async function usersRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, usersApi.list, async () => ({ data: await listUsers(db) }));

  route(app, usersApi.toggleAdmin, async (req) => {
    const user = await toggleAdmin(db, pathId(req.params.id, userNotFound), currentUser(req).id);
    return { data: user, message: 'Rôle modifié' };
  });

  route(app, usersApi.reinvite, async (req) => {
    const account = await reinvite(app.ctx, currentUser(req).id, pathId(req.params.id, userNotFound));
    return { data: account, message: 'Invitation envoyée' };
  });

  route(app, usersApi.remove, async (req) => {
    const user = await deleteUser(db, pathId(req.params.id, userNotFound), currentUser(req).id);
    return { data: user, message: 'Utilisateur supprimé' };
  });
}
