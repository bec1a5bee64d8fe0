import type { FastifyInstance } from 'fastify';
import { exportsApi } from '../../src/api/exports/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { getBigExport, listBigExports, requestBigExport } from '../services/exports/big-export';
import { listExports } from '../services/exports/history';
import { reinjectExport } from '../services/exports/reinject';
import { pathId } from '../route-params';

/** 'Gestion des exports': the history of exports, re-injection and custom exports. */
export default async function exportsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  route(app, exportsApi.list, async (req) => listExports(db, config, req.query));

  route(app, exportsApi.reinject, async (req) => {
    const data = await reinjectExport(app.ctx, currentUser(req).id, pathId(req.params.id, 'Export introuvable'));
    return { data, message: 'Leads insérés' };
  });

  route(app, exportsApi.generateBig, async (req, reply) => {
    const job = await requestBigExport(app.ctx, currentUser(req), req.query);
    reply.status(202);
    return { data: job, message: 'Export en cours de génération' };
  });

  route(app, exportsApi.bigJobs, async (req) => ({ data: await listBigExports(db, config, currentUser(req).id) }));

  route(app, exportsApi.bigJob, async (req) => ({ data: await getBigExport(db, config, pathId(req.params.id, 'Export personnalisé introuvable')) }));
}
