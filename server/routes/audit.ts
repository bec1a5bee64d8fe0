import type { FastifyInstance } from 'fastify';
import { auditQuery, auditResponse } from '../../src/api/audit/contract';
import { currentUser } from '../context';
import { exportAudit, listAudit } from '../services/audit-log';
import { attachmentHeader } from '../services/exports/filenames';
import { contentTypes } from '../services/exports/writers';
import { parse } from '../validate';

// Read only: nothing in the API changes or deletes a row of the audit log.
export default async function auditRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  app.get('/api/audit', { config: { auth: 'admin', response: auditResponse } }, async (req) => listAudit(db, parse(auditQuery, req.query)));

  app.get('/api/audit/export.csv', { config: { auth: 'admin', response: 'file' } }, async (req, reply) => {
    const body = await exportAudit(db, parse(auditQuery, req.query), currentUser(req).id);
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', contentTypes.csv)
      .header('content-disposition', attachmentHeader(`journal-audit-${day}.csv`))
      .header('cache-control', 'no-store')
      .send(body);
  });
}
