import type { FastifyInstance } from 'fastify';
import {
  changeColorQuery,
  changeColorResponse,
  changeTextRequest,
  changeTextResponse,
  departmentCode,
  productionCategory,
  productionResponse,
  regionsDataQuery,
  regionsDataResponse,
  type DepartmentCode,
  type ProductionCategory,
} from '../../src/api/productions/contract';
import { currentUser } from '../context';
import { notFound } from '../errors';
import { getProduction, saveNote, saveSelection } from '../services/productions/notes';
import { regionsData } from '../services/productions/regions';
import { parse } from '../validate';

type Query = Record<string, string | string[] | undefined>;

/** 'pac', 'pv' or 'other'; anything else names no production map (404). */
function categoryOf(raw: string): ProductionCategory {
  const parsed = productionCategory.safeParse(raw);
  if (!parsed.success) throw notFound('Catégorie de production inconnue');
  return parsed.data;
}

function regionOf(raw: string): DepartmentCode {
  const parsed = departmentCode.safeParse(raw);
  if (!parsed.success) throw notFound(`Département inconnu : ${raw}`);
  return parsed.data;
}

export default async function productionsRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get<{ Params: { category: string } }>('/api/productions/:category', { config: { auth: 'user', response: productionResponse } }, async (req) => ({
    data: await getProduction(db, categoryOf(req.params.category)),
  }));

  app.post<{ Params: { category: string }; Querystring: Query }>(
    '/api/productions/:category/regions/data',
    { config: { auth: 'user', response: regionsDataResponse } },
    async (req) => {
      const category = categoryOf(req.params.category);
      return { data: await regionsData(db, category, parse(regionsDataQuery, req.query)) };
    },
  );

  app.post<{ Params: { category: string }; Querystring: Query }>(
    '/api/productions/:category/change_color',
    { config: { auth: 'user', response: changeColorResponse } },
    async (req) => {
      const category = categoryOf(req.params.category);
      const query = parse(changeColorQuery, req.query);
      const data = await saveSelection(db, currentUser(req), category, query.departement, query.color);
      return { data, message: query.color === undefined ? 'Sélection enregistrée' : 'Couleur attribuée' };
    },
  );

  app.post<{ Params: { category: string; departement: string }; Querystring: Query }>(
    '/api/productions/:category/:departement/change_text',
    { config: { auth: 'user', response: changeTextResponse } },
    async (req) => {
      const category = categoryOf(req.params.category);
      const region = regionOf(req.params.departement);
      // The original sent the note in the query string; a long note fits only in a body.
      const body = req.body && typeof req.body === 'object' && 'text' in req.body ? req.body : req.query;
      const { text } = parse(changeTextRequest, body);
      return { data: await saveNote(db, currentUser(req), category, region, text), message: 'Notes enregistrées' };
    },
  );
}
