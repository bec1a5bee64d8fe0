import type { FastifyInstance } from 'fastify';
import { landingIdParam } from '../../src/api/contract/landings';
import { importRequest } from '../../src/api/contract/leads';
import { currentUser } from '../context';
import { importLeads } from '../services/imports/import';
import { getLanding, landingNotFound } from '../services/leads/landings';
import { parse } from '../validate';

export default async function importsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  app.post<{ Params: { id: string } }>(
    '/api/landings/:id/import/excel',
    { bodyLimit: config.IMPORT_BODY_LIMIT_MB * 1024 * 1024 },
    async (req) => {
      const id = landingIdParam.safeParse(req.params.id);
      if (!id.success) throw landingNotFound();
      const landing = await getLanding(db, id.data);
      return importLeads(db, currentUser(req), landing, parse(importRequest, req.body));
    },
  );
}
