import type { EntryStatus, StatusChangeRequest, TargetStatus } from '../../../src/api/leads/contract';
import { entryStatus } from '../../../src/api/leads/contract';
import type { Db, Queryable } from '../../db/connection';
import { conflict, forbidden, notFound } from '../../errors';
import type { SessionUser } from '../auth/sessions';
import { Params } from '../../db/params';
import { retryOnConflict } from '../../db/retry';
import { selectionConditions } from './selection';
import { auditSql } from '../audit';

const messages: Record<TargetStatus, string> = {
  new: 'Classé comme nouveau',
  archived: 'Leads archivés',
  trashed: 'Leads placés à la corbeille',
};

/** Statuses a lead may leave for `to`: the one the user saw, never 'converted' (it points to its copy). */
function fromStatuses(to: TargetStatus, seen: EntryStatus | undefined): EntryStatus[] {
  const all = entryStatus.options.filter((s) => s !== to && s !== 'converted');
  return seen ? all.filter((s) => s === seen) : all;
}

/**
 * The `leads.status` events of leads moved by one statement (a CTE `moved` of id, landing_id and
 * the status they left), one per landing, previous and new status, written by that statement.
 */
export function statusEvents(moved: string, prev: string, to: string, by: string): string {
  return `INSERT INTO events (type, audience, data)
          SELECT 'leads.status', 'all', jsonb_build_object('landing_id', landing_id, 'ids', jsonb_agg(id ORDER BY id), 'from', ${prev}::text, 'to', (${to})::text, 'by', ${by}::jsonb)
            FROM ${moved} GROUP BY landing_id, ${prev}, (${to})::text`;
}

/** Moves the selected leads to `entry_status` in one transaction and records how to undo it. */
export async function changeStatus(db: Db, user: SessionUser, req: StatusChangeRequest & { entry_status: TargetStatus }) {
  return retryOnConflict(() =>
    db.tx(async (q) => {
      const params = new Params();
      const from = fromStatuses(req.entry_status, req.filter ? req.filter.entry_status : req.from_status);
      const { where, verify } = await selectionConditions(q, req, from, params);
      const to = params.add(req.entry_status);
      // The previous status and updated_at of each lead, read under lock, are what its undo restores.
      const by = params.add(JSON.stringify({ id: user.id, name: user.name }));
      const { rows } = await q.query<{ id: number; count: number }>(
        `WITH moved AS (
         UPDATE leads u SET entry_status = ${to}, updated_at = now()
           FROM (SELECT l.id, l.entry_status AS prev, l.updated_at AS prev_at FROM leads l WHERE ${where.join(' AND ')} FOR UPDATE) p
          WHERE u.id = p.id RETURNING u.id, u.landing_id, p.prev, p.prev_at),
       told AS (${statusEvents('moved', 'prev', to, by)}),
       acted AS (
         INSERT INTO lead_actions (user_id, to_status, count, lead_ids, from_statuses, from_updated_at)
         SELECT ${params.add(user.id)}, ${to}, count(*), coalesce(array_agg(id), '{}'), coalesce(array_agg(prev), '{}'), coalesce(array_agg(prev_at), '{}') FROM moved
         RETURNING id, count),
       logged AS (${auditSql(params, { actorId: user.id, action: 'status', entity: 'leads', count: 'count', details: `jsonb_build_object('to', ${to}::text, 'action_id', id)`, from: 'acted' })})
       SELECT id, count FROM acted`,
        params.values,
      );
      const { id: action, count: rowCount } = rows[0];
      // Fewer leads moved than were named: the transaction (its audit row included) is undone if one is unknown.
      await verify(rowCount);
      return { data: { count: rowCount, action_id: action }, message: rowCount ? messages[req.entry_status] : "Aucun lead n'a changé de statut" };
    }),
  );
}

/** Restores the previous status and updated_at of every lead of an action that still has the status it set; once. */
export async function undoAction(db: Db, user: SessionUser, actionId: number) {
  return db.tx(async (q) => {
    const { rows } = await q.query<{ user_id: number | null; to_status: string; undone: boolean }>(
      'SELECT user_id, to_status, undone_at IS NOT NULL AS undone FROM lead_actions WHERE id = $1 FOR UPDATE',
      [actionId],
    );
    const action = rows[0];
    if (!action) throw notFound('Action introuvable');
    if (action.user_id !== user.id && !user.admin) throw forbidden('Seuls son auteur et les administrateurs peuvent annuler cette action');
    if (action.undone) throw conflict('Action déjà annulée');
    const params = new Params();
    const id = params.add(actionId);
    const { rows: undone } = await q.query<{ n: number }>(
      `WITH back AS (
         UPDATE leads l SET entry_status = i.from_status, updated_at = coalesce(i.from_updated_at, now())
           FROM lead_actions a, unnest(a.lead_ids, a.from_statuses, a.from_updated_at) AS i(lead_id, from_status, from_updated_at)
          WHERE a.id = ${id} AND l.id = i.lead_id AND l.entry_status = a.to_status
         RETURNING l.id, l.landing_id, a.to_status AS prev, i.from_status AS now),
       told AS (${statusEvents('back', 'prev', 'now', params.add(JSON.stringify({ id: user.id, name: user.name })))}),
       marked AS (UPDATE lead_actions SET undone_at = now() WHERE id = ${id}),
       logged AS (${auditSql(params, { actorId: user.id, action: 'undo', entity: 'leads', count: 'count(*)', details: `jsonb_build_object('action_id', ${id}::int)`, from: 'back' })})
       SELECT count(*)::int AS n FROM back`,
      params.values,
    );
    const rowCount = undone[0]!.n;
    return { data: { count: rowCount }, message: 'Action annulée' };
  });
}

/** Deletes the undo records of actions older than `days`: they can no longer be undone. */
export async function pruneLeadActions(db: Queryable, days: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM lead_actions WHERE created_at < now() - make_interval(days => $1)', [days]);
  return rowCount;
}
