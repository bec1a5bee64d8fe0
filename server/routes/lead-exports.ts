import type { FastifyInstance } from 'fastify';
import { leadsApi } from '../../src/api/leads/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { openDownload } from '../services/exports/download';
import { exportedMessage, extractLeads } from '../services/exports/extract';
import { landingsOfPath } from '../route-params';

export default async function leadExportsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  route(app, leadsApi.export, async (req) => {
    const landings = await landingsOfPath(app.ctx.db, req);
    const link = await extractLeads(db, config, currentUser(req), landings, req.body);
    return { data: link, message: exportedMessage(link) };
  });

  // A public capability: whoever holds the link downloads the file (and the download is logged).
  route(app, leadsApi.download, async (req, reply) => {
    const file = await openDownload(db, config, req.params.token, req.params.filename, req.method === 'GET');
    return reply.headers(file.headers).send(file.body);
  });
}
