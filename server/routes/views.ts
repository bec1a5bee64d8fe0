import type { FastifyInstance } from 'fastify';
import { viewsApi } from '../../src/api/views/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { pathId } from '../route-params';
import { createView, deleteView, listViews, updateView } from '../services/views';

export default async function viewsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, viewsApi.list, async (req) => ({ data: await listViews(db, currentUser(req)) }));

  route(app, viewsApi.create, async (req, reply) => {
    reply.status(201);
    return { data: await createView(db, currentUser(req), req.body), message: 'Vue enregistrée' };
  });

  route(app, viewsApi.update, async (req) => ({
    data: await updateView(db, currentUser(req), pathId(req.params.id, 'Vue introuvable'), req.body),
    message: 'Vue modifiée',
  }));

  route(app, viewsApi.remove, async (req) => ({
    data: await deleteView(db, currentUser(req), pathId(req.params.id, 'Vue introuvable')),
    message: 'Vue supprimée',
  }));
}
