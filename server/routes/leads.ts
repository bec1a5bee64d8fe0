import type { FastifyInstance } from 'fastify';
import { serialIdParam } from '../../src/api/contract/ids';
import { landingIdsParam } from '../../src/api/contract/landings';
import { convertRequest, deleteRequest, leadListQuery, statusChangeRequest } from '../../src/api/contract/leads';
import { currentUser } from '../context';
import { notFound } from '../errors';
import { convertLeads } from '../services/leads/convert';
import { deleteLeads } from '../services/leads/delete';
import { filtersFromQuery } from '../services/leads/filters';
import { getLandings, landingNotFound } from '../services/leads/landings';
import { countMatching, listLeads } from '../services/leads/list';
import { changeStatus, undoAction } from '../services/leads/status';
import { parse } from '../validate';

type RawQuery = Record<string, string | string[] | undefined>;

/** The landings named by a ':ids' path segment ("3" or "3,5"); malformed or unknown → 404. */
export async function landingsOfPath(app: FastifyInstance, ids: string) {
  const parsed = landingIdsParam.safeParse(ids);
  if (!parsed.success) throw landingNotFound();
  return getLandings(app.ctx.db, parsed.data);
}

export default async function leadsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get<{ Params: { ids: string }; Querystring: RawQuery }>('/api/landings/data/:ids', async (req) => {
    const landings = await landingsOfPath(app, req.params.ids);
    const query = parse(leadListQuery, req.query);
    return listLeads(db, landings, query, filtersFromQuery(req.query));
  });

  app.get<{ Params: { ids: string }; Querystring: RawQuery }>('/api/landings/data/:ids/count', async (req) => {
    const landings = await landingsOfPath(app, req.params.ids);
    return countMatching(db, landings, parse(leadListQuery, req.query), filtersFromQuery(req.query));
  });

  app.post('/api/landings/data', async (req) => changeStatus(db, currentUser(req), parse(statusChangeRequest, req.body)));

  app.post<{ Params: { id: string } }>('/api/landings/data/undo/:id', async (req) => {
    const id = serialIdParam.safeParse(req.params.id);
    if (!id.success) throw notFound('Action introuvable');
    return undoAction(db, currentUser(req), id.data);
  });

  app.delete('/api/landings/data', async (req) => deleteLeads(db, currentUser(req), parse(deleteRequest, req.body)));

  app.post('/api/landings/convert/leads', async (req) => convertLeads(db, currentUser(req), parse(convertRequest, req.body)));
}
