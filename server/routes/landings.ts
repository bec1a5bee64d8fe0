import type { FastifyInstance } from 'fastify';
import { allLandingsResponse, landingResponse, landingsResponse, landingUpdateRequest } from '../../src/api/landings/contract';
import { currentUser } from '../context';
import { getLanding, landingNotFound, listLandingRefs, listLandings, updateLanding } from '../services/leads/landings';
import { parse } from '../validate';
import { pathId } from '../route-params';

export default async function landingsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/landings', { config: { auth: 'user', response: landingsResponse } }, async () => ({ data: await listLandings(db, 'standard') }));
  app.get('/api/landings_facebook', { config: { auth: 'user', response: landingsResponse } }, async () => ({ data: await listLandings(db, 'facebook') }));
  app.get('/api/all/landings', { config: { auth: 'user', response: allLandingsResponse } }, async () => ({ data: await listLandingRefs(db) }));

  app.get<{ Params: { id: string } }>('/api/landings/:id', { config: { auth: 'user', response: landingResponse } }, async (req) => {
    return { data: await getLanding(db, pathId(req.params.id, landingNotFound().message)) };
  });

  app.patch<{ Params: { id: string } }>('/api/landings/:id', { config: { auth: 'admin', response: landingResponse } }, async (req) => {
    const id = pathId(req.params.id, landingNotFound().message);
    return { data: await updateLanding(db, currentUser(req).id, id, parse(landingUpdateRequest, req.body ?? {})) };
  });
}
