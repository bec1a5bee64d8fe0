import type { FastifyInstance } from 'fastify';
import {
  bigExportAccepted,
  bigExportJobResponse,
  bigExportJobsResponse,
  bigExportQuery,
  exportsQuery,
  exportsResponse,
  reinjectResponse,
} from '../../src/api/exports/contract';
import { currentUser } from '../context';
import { getBigExport, listBigExports, requestBigExport } from '../services/exports/big-export';
import { listExports } from '../services/exports/history';
import { reinjectExport } from '../services/exports/reinject';
import { parse } from '../validate';
import { pathId } from '../route-params';

/** 'Gestion des exports': the history of exports, re-injection and custom exports. */
export default async function exportsRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;

  app.get('/api/exports', { config: { auth: 'admin', response: exportsResponse } }, async (req) => listExports(db, config, parse(exportsQuery, req.query)));

  app.post<{ Params: { id: string } }>('/api/exports/insert/:id', { config: { auth: 'admin', response: reinjectResponse } }, async (req) => {
    const data = await reinjectExport(app.ctx, currentUser(req).id, pathId(req.params.id, 'Export introuvable'));
    return { data, message: 'Leads insérés' };
  });

  app.post('/api/generate_big_export', { config: { auth: 'admin', response: bigExportAccepted } }, async (req, reply) => {
    const job = await requestBigExport(app.ctx, currentUser(req), parse(bigExportQuery, req.query));
    return reply.status(202).send({ data: job, message: 'Export en cours de génération' });
  });

  app.get('/api/big_exports', { config: { auth: 'admin', response: bigExportJobsResponse } }, async (req) => ({
    data: await listBigExports(db, config, currentUser(req).id),
  }));

  app.get<{ Params: { id: string } }>('/api/big_exports/:id', { config: { auth: 'admin', response: bigExportJobResponse } }, async (req) => ({
    data: await getBigExport(db, config, pathId(req.params.id, 'Export personnalisé introuvable')),
  }));
}
