import type { FastifyInstance } from 'fastify';
import { deliveriesResponse, reportFileQuery, reportsResponse } from '../../src/api/reports/contract';
import { routingResponse } from '../../src/api/rules/contract';
import { currentUser } from '../context';
import { explainRouting } from '../services/lives/routing';
import { listDeliveries, listReports, reportFile } from '../services/lives/reports';
import { parse } from '../validate';
import { pathId } from '../route-params';

export default async function reportsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  app.get<{ Params: { ruleId: string } }>('/api/rapports/rules/:ruleId', { config: { auth: 'admin', response: reportsResponse } }, async (req) =>
    listReports(db, config, pathId(req.params.ruleId, 'Règle introuvable')),
  );

  app.get<{ Params: { id: string } }>('/api/rapports/:id/file', { config: { auth: 'admin', response: 'file' } }, async (req, reply) => {
    const id = pathId(req.params.id, 'Rapport introuvable');
    const file = await reportFile(db, currentUser(req).id, id, parse(reportFileQuery, req.query).format);
    return reply.headers(file.headers).send(file.body);
  });

  app.get<{ Params: { id: string } }>('/api/rapports/:id/deliveries', { config: { auth: 'admin', response: deliveriesResponse } }, async (req) => ({
    data: await listDeliveries(db, pathId(req.params.id, 'Rapport introuvable')),
  }));

  app.get<{ Params: { id: string; leadId: string } }>(
    '/api/landings/data/:id/routing/:leadId',
    { config: { auth: 'admin', response: routingResponse } },
    async (req) => ({
      data: await explainRouting(db, pathId(req.params.id, 'Lead introuvable'), pathId(req.params.leadId, 'Lead introuvable')),
    }),
  );
}
