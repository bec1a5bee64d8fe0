import type { FastifyInstance } from 'fastify';
import { leadSalesResponse } from '../../src/api/sales/contract';
import { listLeadSales } from '../services/sales/list';
import { pathId } from '../route-params';

export default async function salesRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get<{ Params: { id: string; leadId: string } }>(
    '/api/landings/data/:id/sales/:leadId',
    { config: { auth: 'admin', response: leadSalesResponse } },
    async (req) => ({
      data: await listLeadSales(db, pathId(req.params.id, 'Lead introuvable'), pathId(req.params.leadId, 'Lead introuvable')),
    }),
  );
}
