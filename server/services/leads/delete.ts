import type { DeleteRequest } from '../../../src/api/leads/contract';
import { entryStatus } from '../../../src/api/leads/contract';
import type { Db } from '../../db/connection';
import type { SessionUser } from '../auth/sessions';
import { Params } from '../../db/params';
import { selectionConditions } from './selection';
import { audit } from '../audit';

/** Definitive deletion (GDPR): the rows are gone; the audit log keeps who, when and how many. */
export async function deleteLeads(db: Db, user: SessionUser, req: DeleteRequest) {
  return db.tx(async (q) => {
    const params = new Params();
    const { where, verify } = await selectionConditions(q, req, [...entryStatus.options], params);
    const { rowCount } = await q.query(`DELETE FROM leads l WHERE ${where.join(' AND ')}`, params.values);
    await verify(rowCount);
    await audit(q, { actorId: user.id, action: 'delete', entity: 'leads', count: rowCount, details: req.filter ? { landings: req.filter.ids } : {} });
    return { data: { count: rowCount }, message: 'Leads supprimés' };
  });
}
