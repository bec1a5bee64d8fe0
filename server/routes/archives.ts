import type { FastifyInstance } from 'fastify';
import { archivesApi } from '../../src/api/archives/endpoints';
import { currentUser } from '../context';
import { route } from '../endpoint';
import { archiveOldLeads } from '../services/retention/archive';
import { listArchives } from '../services/retention/list';
import { restoreMonth } from '../services/retention/restore';

export default async function archivesRoutes(app: FastifyInstance) {
  route(app, archivesApi.list, async () => listArchives(app.ctx));

  route(app, archivesApi.run, async (req) => {
    const data = await archiveOldLeads(app.ctx, currentUser(req).id);
    return { data, message: data.leads ? 'Anciens leads archivés' : 'Aucun lead à archiver' };
  });

  route(app, archivesApi.restore, async (req) => {
    const leads = await restoreMonth(app.ctx, req.params.month, currentUser(req).id);
    return { data: { month: req.params.month, leads }, message: 'Leads restaurés' };
  });
}
