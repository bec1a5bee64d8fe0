import type { FastifyInstance } from 'fastify';
import { intakeResponse } from '../../src/api/leads/contract';
import { intakeLead } from '../services/intake';
import { consume, type RateLimit } from '../services/rate-limit';

/** Posts per minute and per address accepted from landing pages, counted in the database (all instances together). */
const intakeLimit: RateLimit = { bucket: 'intake', max: 60, windowSeconds: 60, message: 'Trop de requêtes, veuillez réessayer dans une minute' };

export default async function intakeRoutes(app: FastifyInstance) {
  // Landing pages live on other origins: the intake answers any origin, without credentials.
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST, OPTIONS', 'access-control-allow-headers': 'content-type' };
  app.options('/api/intake/:key', { config: { auth: 'public', response: 'none' } }, async (_req, reply) => reply.headers({ ...cors, 'access-control-max-age': '86400' }).status(204).send());

  app.post<{ Params: { key: string } }>(
    '/api/intake/:key',
    {
      config: { auth: 'public', response: intakeResponse },
      // Counted before the body is read, so that refused posts cost no parsing.
      onRequest: async (req) => consume(app.ctx.db, intakeLimit, req.ip),
      onSend: async (_req, reply) => {
        reply.headers(cors);
      },
    },
    async (req, reply) => {
      const lead = await intakeLead(app.ctx, req.params.key, req.body);
      return reply.status(201).send({ data: lead });
    },
  );
}
