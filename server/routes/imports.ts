import type { FastifyInstance } from 'fastify';
import { importRequest, importResponse } from '../../src/api/leads/contract';
import { currentUser } from '../context';
import { importLeads } from '../services/imports/import';
import { getLanding, landingNotFound } from '../services/leads/landings';
import { parse } from '../validate';
import { pathId } from '../route-params';

export default async function importsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  app.post<{ Params: { id: string } }>(
    '/api/landings/:id/import/excel',
    { bodyLimit: config.IMPORT_BODY_LIMIT_MB * 1024 * 1024, config: { auth: 'user', response: importResponse } },
    async (req) => {
      const landing = await getLanding(db, pathId(req.params.id, landingNotFound().message));
      return importLeads(app.ctx, currentUser(req), landing, parse(importRequest, req.body));
    },
  );
}
