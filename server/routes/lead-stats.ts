import type { FastifyInstance } from 'fastify';
import { leadsApi } from '../../src/api/leads/endpoints';
import { route } from '../endpoint';
import { departmentStats } from '../services/leads/stats';
import { landingsOfPath } from '../route-params';

export default async function leadStatsRoutes(app: FastifyInstance) {
  route(app, leadsApi.stats, async (req) => {
    const landings = await landingsOfPath(app.ctx.db, req);
    return { data: await departmentStats(app.ctx.db, { ...req.params, ids: landings.map((l) => l.id) }) };
  });
}
