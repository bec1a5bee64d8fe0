import type { FastifyInstance } from 'fastify';
import { salesApi } from '../../src/api/sales/endpoints';
import { route } from '../endpoint';
import { listLeadSales } from '../services/sales/list';
import { pathId } from '../route-params';

export default async function salesRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, salesApi.ofLead, async (req) => ({
    data: await listLeadSales(db, pathId(req.params.id, 'Lead introuvable'), pathId(req.params.leadId, 'Lead introuvable')),
  }));
}
