import type { FastifyInstance } from 'fastify';
import { rulesApi } from '../../src/api/rules/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { createRule, deleteRule, listRules, ruleNotFound, rulesToday, updateRule } from '../services/lives/rules';
import { pathId } from '../route-params';
import { simulateRule } from '../services/delivery/simulate';

export default async function rulesRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, rulesApi.list, async (req) => ({ data: await listRules(db, req.query.customer_id) }));

  // Polled by the rules screen for its live fill bars: 204 while nothing changed since `since`.
  route(app, rulesApi.today, async (req, reply) => {
    const fill = await rulesToday(db, req.query.customer_id, req.query.since);
    reply.header('cache-control', 'no-store');
    return fill ?? reply.status(204).send();
  });

  route(app, rulesApi.create, async (req, reply) => {
    const rule = await createRule(db, currentUser(req).id, req.body);
    reply.status(201);
    return { status: true as const, data: rule, message: 'Règle ajoutée' };
  });

  route(app, rulesApi.update, async (req) => {
    const id = pathId(req.params.id, ruleNotFound);
    const rule = await updateRule(db, currentUser(req).id, id, req.body);
    return { status: true as const, data: rule, message: 'Règle modifiée' };
  });

  route(app, rulesApi.remove, async (req) => {
    const id = pathId(req.params.id, ruleNotFound);
    await deleteRule(db, currentUser(req).id, id);
    return { data: { id }, message: 'Règle supprimée' };
  });

  // Replays the past in memory: reads only, so it may be asked at every keystroke of the form (debounced).
  route(app, rulesApi.simulate, async (req) => ({ data: await simulateRule(db, req.body) }));
}
