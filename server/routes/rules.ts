import type { FastifyInstance } from 'fastify';
import {
  ruleCreateRequest,
  ruleDeleteResponse,
  ruleResponse,
  rulesQuery,
  rulesResponse,
  rulesTodayQuery,
  rulesTodayResponse,
  ruleUpdateRequest,
} from '../../src/api/rules/contract';
import { currentUser } from '../context';
import { createRule, deleteRule, listRules, ruleNotFound, rulesToday, updateRule } from '../services/lives/rules';
import { parse } from '../validate';
import { pathId } from '../route-params';

export default async function rulesRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/customers/rules', { config: { auth: 'admin', response: rulesResponse } }, async (req) => ({
    data: await listRules(db, parse(rulesQuery, req.query).customer_id),
  }));

  // Polled by the rules screen for its live fill bars: 204 while nothing changed since `since`.
  app.get('/api/customers/rules/today', { config: { auth: 'admin', response: rulesTodayResponse } }, async (req, reply) => {
    const query = parse(rulesTodayQuery, req.query);
    const fill = await rulesToday(db, query.customer_id);
    reply.header('cache-control', 'no-store');
    if (query.since === fill.version) return reply.status(204).send();
    return fill;
  });

  app.post('/api/customers/rules', { config: { auth: 'admin', response: ruleResponse } }, async (req, reply) => {
    const rule = await createRule(db, currentUser(req).id, parse(ruleCreateRequest, req.body ?? {}));
    return reply.status(201).send({ status: true, data: rule, message: 'Règle ajoutée' });
  });

  app.patch<{ Params: { id: string } }>('/api/customers/rules/:id', { config: { auth: 'admin', response: ruleResponse } }, async (req) => {
    const id = pathId(req.params.id, ruleNotFound);
    const rule = await updateRule(db, currentUser(req).id, id, parse(ruleUpdateRequest, req.body ?? {}));
    return { status: true, data: rule, message: 'Règle modifiée' };
  });

  app.delete<{ Params: { id: string } }>('/api/customers/rules/:id', { config: { auth: 'admin', response: ruleDeleteResponse } }, async (req) => {
    const id = pathId(req.params.id, ruleNotFound);
    await deleteRule(db, currentUser(req).id, id);
    return { data: { id }, message: 'Règle supprimée' };
  });
}
