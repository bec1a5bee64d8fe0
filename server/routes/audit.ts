import type { FastifyInstance } from 'fastify';
import { auditApi } from '../../src/api/audit/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { exportAudit, listAudit } from '../services/audit-log';
import { attachmentHeader } from '../services/exports/filenames';
import { contentTypes } from '../services/exports/writers';

export default async function auditRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  route(app, auditApi.list, async (req) => listAudit(db, req.query));

  route(app, auditApi.export, async (req, reply) => {
    const body = await exportAudit(db, req.query, currentUser(req).id);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', contentTypes.csv)
      .header('content-disposition', attachmentHeader(`journal-audit-${day}.csv`))
      .header('cache-control', 'no-store')
      .send(body);
  });
}
