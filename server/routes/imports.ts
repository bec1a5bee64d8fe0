import type { FastifyInstance } from 'fastify';
import { leadsApi } from '../../src/api/leads/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { importLeads } from '../services/imports/import';
import { getLanding, landingNotFound } from '../services/leads/landings';
import { pathId } from '../route-params';

export default async function importsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  route(
    app,
    leadsApi.import,
    async (req) => {
      const landing = await getLanding(db, pathId(req.params.id, landingNotFound().message));
      return importLeads(app.ctx, currentUser(req), landing, req.body);
    },
    { bodyLimit: config.IMPORT_BODY_LIMIT_MB * 1024 * 1024 },
  );
}
