import type { FastifyInstance } from 'fastify';
import { departmentCode, productionCategory, type DepartmentCode, type ProductionCategory } from '../../src/api/productions/contract';
import { productionsApi } from '../../src/api/productions/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { notFound, validationFailed } from '../errors';
import { coverage } from '../services/productions/coverage';
import { getProduction, saveNote, saveSelection } from '../services/productions/notes';
import { regionsData } from '../services/productions/regions';

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

  route(app, productionsApi.get, async (req) => ({ data: await getProduction(db, categoryOf(req.params.category)) }));

  route(app, productionsApi.regionsData, async (req) => ({ data: await regionsData(db, categoryOf(req.params.category), req.query) }));

  route(app, productionsApi.coverage, async (req) => ({ data: await coverage(db, categoryOf(req.params.category), req.query) }));

  route(app, productionsApi.changeColor, async (req) => {
    const category = categoryOf(req.params.category);
    const data = await saveSelection(db, currentUser(req), category, req.query.departement, req.query.color);
    return { data, message: req.query.color === undefined ? 'Sélection enregistrée' : 'Couleur attribuée' };
  });

  route(app, productionsApi.changeText, async (req) => {
    const category = categoryOf(req.params.category);
    const region = regionOf(req.params.departement);
    // The original sent the note in the query string; a long note fits only in a body.
    const text = req.body.text ?? req.query.text;
    if (text === undefined) throw validationFailed({ text: 'Texte de la note requis' });
    return { data: await saveNote(db, currentUser(req), category, region, text), message: 'Notes enregistrées' };
  });
}
