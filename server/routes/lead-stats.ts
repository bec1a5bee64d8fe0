import type { FastifyInstance } from 'fastify';
import { departmentStatsResponse, statsParams } from '../../src/api/leads/contract';
import { departmentStats } from '../services/leads/stats';
import { parse } from '../validate';
import { landingsOfPath } from '../route-params';

export default async function leadStatsRoutes(app: FastifyInstance) {
  app.get<{ Params: Record<string, string> }>(
    '/api/landings/data/departement/:ids/:category/:start/:end/:zone',
    { config: { auth: 'user', response: departmentStatsResponse } },
    async (req) => {
      await landingsOfPath(app.ctx.db, req.params.ids);
      return { data: await departmentStats(app.ctx.db, parse(statsParams, req.params)) };
    },
  );
}
