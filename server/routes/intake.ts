import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { AppError } from '../errors';
import { intakeResponse } from '../../src/api/leads/contract';
import { intakeLead } from '../services/intake';
import { offerLeads } from '../services/delivery/offer';

/** Posts per minute and per address accepted from landing pages. */
const INTAKE_PER_MINUTE = 60;

export default async function intakeRoutes(app: FastifyInstance) {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, 'rate_limited', 'Trop de requêtes, veuillez réessayer dans une minute'),
  });

  // Landing pages live on other origins: the intake answers any origin, without credentials.
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST, OPTIONS', 'access-control-allow-headers': 'content-type' };
  app.options('/api/intake/:key', { config: { auth: 'public', response: 'none' } }, async (_req, reply) => reply.headers({ ...cors, 'access-control-max-age': '86400' }).status(204).send());

  app.post<{ Params: { key: string } }>(
    '/api/intake/:key',
    {
      config: { auth: 'public', response: intakeResponse, rateLimit: { max: INTAKE_PER_MINUTE, timeWindow: '1 minute' } },
      onSend: async (_req, reply) => {
        reply.headers(cors);
      },
    },
    async (req, reply) => {
      const lead = await intakeLead(app.ctx.db, req.params.key, req.body);
      if (lead.entry_status === 'new') await offerLeads(app.ctx, [lead.id]);
      return reply.status(201).send({ data: lead });
    },
  );
}
