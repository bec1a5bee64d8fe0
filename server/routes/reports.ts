import type { FastifyInstance } from 'fastify';
import { reportsApi } from '../../src/api/reports/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { explainRouting } from '../services/lives/routing';
import { listDeliveries, listReports, reportFile } from '../services/lives/reports';
import { pathId } from '../route-params';

export default async function reportsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  route(app, reportsApi.ofRule, async (req) => listReports(db, config, pathId(req.params.ruleId, 'Règle introuvable')));

  route(app, reportsApi.file, async (req, reply) => {
    const id = pathId(req.params.id, 'Rapport introuvable');
    const file = await reportFile(db, currentUser(req).id, id, req.query.format);
    return reply.headers(file.headers).send(file.body);
  });

  route(app, reportsApi.deliveries, async (req) => ({ data: await listDeliveries(db, pathId(req.params.id, 'Rapport introuvable')) }));

  route(app, reportsApi.routing, async (req) => ({
    data: await explainRouting(db, pathId(req.params.id, 'Lead introuvable'), pathId(req.params.leadId, 'Lead introuvable')),
  }));
}
