import type { FastifyInstance } from 'fastify';
import { getLanding, landingNotFound, listLandingRefs, listLandings } from '../services/leads/landings';
import { pathId } from './params';

export default async function landingsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/landings', async () => ({ data: await listLandings(db, 'standard') }));
  app.get('/api/landings_facebook', async () => ({ data: await listLandings(db, 'facebook') }));
  app.get('/api/all/landings', async () => ({ data: await listLandingRefs(db) }));

  app.get<{ Params: { id: string } }>('/api/landings/:id', async (req) => {
    return { data: await getLanding(db, pathId(req.params.id, landingNotFound().message)) };
  });
}
