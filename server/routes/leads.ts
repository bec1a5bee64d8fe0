import type { FastifyInstance } from 'fastify';
import { convertRequest, deleteRequest, leadListQuery, statusChangeRequest } from '../../src/api/leads/contract';
import { currentUser } from '../context';
import { convertLeads } from '../services/leads/convert';
import { deleteLeads } from '../services/leads/delete';
import { filtersFromQuery } from '../services/leads/filters';
import { countMatching, listLeads } from '../services/leads/list';
import { changeStatus, undoAction } from '../services/leads/status';
import { parse } from '../validate';
import { landingsOfPath, pathId } from './params';

type RawQuery = Record<string, string | string[] | undefined>;


export default async function leadsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get<{ Params: { ids: string }; Querystring: RawQuery }>('/api/landings/data/:ids', async (req) => {
    const landings = await landingsOfPath(db, req.params.ids);
    const query = parse(leadListQuery, req.query);
    return listLeads(db, landings, query, filtersFromQuery(req.query));
  });

  app.get<{ Params: { ids: string }; Querystring: RawQuery }>('/api/landings/data/:ids/count', async (req) => {
    const landings = await landingsOfPath(db, req.params.ids);
    return countMatching(db, landings, parse(leadListQuery, req.query), filtersFromQuery(req.query));
  });

  app.post('/api/landings/data', async (req) => changeStatus(db, currentUser(req), parse(statusChangeRequest, req.body)));

  app.post<{ Params: { id: string } }>('/api/landings/data/undo/:id', async (req) => {
    return undoAction(db, currentUser(req), pathId(req.params.id, 'Action introuvable'));
  });

  app.delete('/api/landings/data', async (req) => deleteLeads(db, currentUser(req), parse(deleteRequest, req.body)));

  app.post('/api/landings/convert/leads', async (req) => convertLeads(db, currentUser(req), parse(convertRequest, req.body)));
}
