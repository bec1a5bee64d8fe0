import type { FastifyInstance } from 'fastify';
import { landingIdParam } from '../../src/api/contract/landings';
import { getLanding, landingNotFound, listLandingRefs, listLandings } from '../services/leads/landings';

export default async function landingsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/landings', async () => ({ data: await listLandings(db, 'standard') }));
  app.get('/api/landings_facebook', async () => ({ data: await listLandings(db, 'facebook') }));
  app.get('/api/all/landings', async () => ({ data: await listLandingRefs(db) }));

  app.get<{ Params: { id: string } }>('/api/landings/:id', async (req) => {
    const id = landingIdParam.safeParse(req.params.id);
    if (!id.success) throw landingNotFound();
    return { data: await getLanding(db, id.data) };
  });
}
