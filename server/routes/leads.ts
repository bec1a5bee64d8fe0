import type { FastifyInstance } from 'fastify';
import { leadsApi } from '../../src/api/leads/endpoints';
import { currentUser } from '../context';
import { rawQuery, route } from '../endpoint';
import { sendWithJsonData } from '../json-text';
import { convertLeads } from '../services/leads/convert';
import { deleteLeads } from '../services/leads/delete';
import { filtersFromQuery } from '../services/leads/filters';
import { countByStatus, countMatching, listLeads } from '../services/leads/list';
import { changeStatus, undoAction } from '../services/leads/status';
import { landingsOfPath, pathId } from '../route-params';

export default async function leadsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, leadsApi.list, async (req, reply) => {
    const landings = await landingsOfPath(db, req);
    return sendWithJsonData(reply, await listLeads(db, landings, req.query, filtersFromQuery(rawQuery(req))));
  });

  route(app, leadsApi.count, async (req) => {
    const landings = await landingsOfPath(db, req);
    return countMatching(db, landings, req.query, filtersFromQuery(rawQuery(req)));
  });

  route(app, leadsApi.statusCounts, async (req) => countByStatus(db, await landingsOfPath(db, req)));

  route(app, leadsApi.changeStatus, async (req) => changeStatus(db, currentUser(req), req.body));

  route(app, leadsApi.undo, async (req) => undoAction(db, currentUser(req), pathId(req.params.id, 'Action introuvable')));

  route(app, leadsApi.remove, async (req) => deleteLeads(db, currentUser(req), req.body));

  route(app, leadsApi.convert, async (req) => convertLeads(app.ctx, currentUser(req), req.body));
}
