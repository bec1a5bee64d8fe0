import type { EntryStatus, LeadSelection } from '../../../src/api/contract/leads';
import { leadSelection } from '../../../src/api/contract/leads';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../errors';
import { parse } from '../../validate';
import { Params } from './columns';
import { leadConditions } from './filters';
import { getLandings } from './landings';

export const leadsNotFound = () => notFound('Leads introuvables');

/**
 * SQL conditions (alias `l`) for the leads a bulk action targets: explicit ids (every one must
 * exist, else 404) restricted to `statuses`, or "all matching" a list filter (its tab status).
 */
export async function selectionConditions(
  db: Queryable,
  target: { leads?: number[]; filter?: LeadSelection },
  statuses: EntryStatus[],
  params: Params,
): Promise<string[]> {
  if (target.filter) {
    const sel = parse(leadSelection, target.filter);
    const landings = await getLandings(db, sel.ids);
    const status = statuses.includes(sel.entry_status) ? sel.entry_status : [];
    return leadConditions(landings, status, sel.filters, params);
  }
  const ids = [...new Set(target.leads ?? [])];
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE id = ANY($1::bigint[])', [ids]);
  if (rows[0].n !== ids.length) throw leadsNotFound();
  return [`l.id = ANY(${params.add(ids)}::bigint[])`, `l.entry_status = ANY(${params.add(statuses)}::text[])`];
}

export async function audit(db: Queryable, userId: number | null, action: string, entity: string, count: number, details: object = {}) {
  await db.query('INSERT INTO audit_log (user_id, action, entity, count, details) VALUES ($1, $2, $3, $4, $5)', [
    userId,
    action,
    entity,
    count,
    JSON.stringify(details),
  ]);
}
