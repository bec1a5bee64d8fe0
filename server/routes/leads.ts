import type { FastifyInstance } from 'fastify';
import {
  convertRequest,
  convertResponse,
  countResponse,
  deleteRequest,
  leadCountResponse,
  leadListQuery,
  leadListResponse,
  statusChangeRequest,
  statusChangeResponse,
  undoResponse,
} from '../../src/api/leads/contract';
import { currentUser } from '../context';
import { convertLeads } from '../services/leads/convert';
import { deleteLeads } from '../services/leads/delete';
import { filtersFromQuery } from '../services/leads/filters';
import { countMatching, listLeads } from '../services/leads/list';
import { changeStatus, undoAction } from '../services/leads/status';
import { parse } from '../validate';
import { landingsOfPath, pathId } from '../route-params';

type RawQuery = Record<string, string | string[] | undefined>;

export default async function leadsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get<{ Params: { ids: string }; Querystring: RawQuery }>(
    '/api/landings/data/:ids',
    { config: { auth: 'user', response: leadListResponse } },
    async (req) => {
      const landings = await landingsOfPath(db, req.params.ids);
      const query = parse(leadListQuery, req.query);
      return listLeads(db, landings, query, filtersFromQuery(req.query));
    },
  );

  app.get<{ Params: { ids: string }; Querystring: RawQuery }>(
    '/api/landings/data/:ids/count',
    { config: { auth: 'user', response: leadCountResponse } },
    async (req) => {
      const landings = await landingsOfPath(db, req.params.ids);
      return countMatching(db, landings, parse(leadListQuery, req.query), filtersFromQuery(req.query));
    },
  );

  app.post('/api/landings/data', { config: { auth: 'user', response: statusChangeResponse } }, async (req) =>
    changeStatus(db, currentUser(req), parse(statusChangeRequest, req.body)),
  );

  app.post<{ Params: { id: string } }>('/api/landings/data/undo/:id', { config: { auth: 'user', response: undoResponse } }, async (req) => {
    return undoAction(db, currentUser(req), pathId(req.params.id, 'Action introuvable'));
  });

  app.delete('/api/landings/data', { config: { auth: 'user', response: countResponse } }, async (req) =>
    deleteLeads(db, currentUser(req), parse(deleteRequest, req.body)),
  );

  app.post('/api/landings/convert/leads', { config: { auth: 'user', response: convertResponse } }, async (req) => {
    return convertLeads(app.ctx, currentUser(req), parse(convertRequest, req.body));
  });
}
