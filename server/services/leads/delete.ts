import type { DeleteRequest } from '../../../src/api/leads/contract';
import { entryStatus } from '../../../src/api/leads/contract';
import type { Db } from '../../db/connection';
import type { SessionUser } from '../auth/sessions';
import { Params } from '../../db/params';
import { selectionConditions } from './selection';
import { audit } from '../audit';

/**
 * The `leads.deleted` events of leads deleted by one statement (a CTE `gone` of id, landing_id and
 * entry_status), one per landing and status, written by that statement.
 */
export function deletedEvents(gone: string, by: string): string {
  return `INSERT INTO events (type, audience, data)
          SELECT 'leads.deleted', 'all', jsonb_build_object('landing_id', landing_id, 'ids', jsonb_agg(id ORDER BY id), 'from', entry_status, 'by', ${by}::jsonb)
            FROM ${gone} GROUP BY landing_id, entry_status`;
}

/** Definitive deletion (GDPR): the rows are gone; the audit log keeps who, when and how many. */
export async function deleteLeads(db: Db, user: SessionUser, req: DeleteRequest) {
  return db.tx(async (q) => {
    const params = new Params();
    const { where, verify } = await selectionConditions(q, req, [...entryStatus.options], params);
    const by = params.add(JSON.stringify({ id: user.id, name: user.name }));
    const { rows } = await q.query<{ n: number }>(
      `WITH gone AS (DELETE FROM leads l WHERE ${where.join(' AND ')} RETURNING l.id, l.landing_id, l.entry_status),
            told AS (${deletedEvents('gone', by)})
       SELECT count(*)::int AS n FROM gone`,
      params.values,
    );
    const rowCount = rows[0]!.n;
    await verify(rowCount);
    await audit(q, { actorId: user.id, action: 'delete', entity: 'leads', count: rowCount, details: req.filter ? { landings: req.filter.ids } : {} });
    return { data: { count: rowCount }, message: 'Leads supprimés' };
  });
}
