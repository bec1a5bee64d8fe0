import type { FastifyInstance } from 'fastify';
import { exportRequest, exportResponse } from '../../src/api/leads/contract';
import { currentUser } from '../context';
import { openDownload } from '../services/exports/download';
import { exportedMessage, extractLeads } from '../services/exports/extract';
import { parse } from '../validate';
import { landingsOfPath } from '../route-params';

export default async function leadExportsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  app.post<{ Params: { ids: string } }>('/api/landings/data/:ids/export', { config: { auth: 'user', response: exportResponse } }, async (req) => {
    const landings = await landingsOfPath(app.ctx.db, req.params.ids);
    const body = parse(exportRequest, req.body ?? {});
    const link = await extractLeads(db, config, currentUser(req), landings, body);
    return { data: link, message: exportedMessage(link) };
  });

  // A public capability: whoever holds the link downloads the file (and the download is logged).
  app.get<{ Params: { token: string; filename: string } }>(
    '/api/exports/:token/:filename',
    { config: { auth: 'public', response: 'file' } },
    async (req, reply) => {
      const file = await openDownload(db, config, req.params.token, req.params.filename, req.method === 'GET');
      return reply.headers(file.headers).send(file.body);
    },
  );
}
