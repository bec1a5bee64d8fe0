import type { FastifyInstance } from 'fastify';
import { landingsApi } from '../../src/api/landings/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { getLanding, landingNotFound, listLandingRefs, listLandings, updateLanding } from '../services/leads/landings';
import { pathId } from '../route-params';

export default async function landingsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, landingsApi.list, async () => ({ data: await listLandings(db, 'standard') }));
  route(app, landingsApi.listFacebook, async () => ({ data: await listLandings(db, 'facebook') }));
  route(app, landingsApi.all, async () => ({ data: await listLandingRefs(db) }));

  route(app, landingsApi.get, async (req) => ({ data: await getLanding(db, pathId(req.params.id, landingNotFound().message)) }));

  route(app, landingsApi.update, async (req) => {
    const id = pathId(req.params.id, landingNotFound().message);
    return { data: await updateLanding(db, currentUser(req).id, id, req.body) };
  });
}
