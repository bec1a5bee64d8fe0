import type { FastifyInstance } from 'fastify';
import { userIdParams } from '../../src/api/contract/users';
import { currentUser } from '../context';
import { deleteUser, listUsers, toggleAdmin } from '../services/users';
import { parse } from '../validate';

export default async function usersRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/users', { config: { auth: 'admin' } }, async () => ({ data: await listUsers(db) }));

  app.post('/api/users/admin/:id', { config: { auth: 'admin' } }, async (req) => {
    const { id } = parse(userIdParams, req.params);
    const user = await db.tx((q) => toggleAdmin(q, id, currentUser(req).id));
    return { data: user, message: 'Rôle modifié' };
  });

  app.delete('/api/users/:id', { config: { auth: 'admin' } }, async (req) => {
    const { id } = parse(userIdParams, req.params);
    const user = await db.tx((q) => deleteUser(q, id, currentUser(req).id));
    return { data: user, message: 'Utilisateur supprimé' };
  });
}
