import type { EntryStatus, LeadSelection } from '../../../src/api/leads/contract';
import { leadSelection } from '../../../src/api/leads/contract';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../errors';
import { parse } from '../../validate';
import { Params } from '../../db/params';
import { leadConditions } from './filters';
import { personPaths } from './person-search';
import { getLandings } from './landings';

export const leadsNotFound = () => notFound('Leads introuvables');

/**
 * SQL conditions (alias `l`) for the leads a bulk action targets: explicit ids restricted to
 * `statuses`, or "all matching" a list filter (its tab status, up to its ceiling). Every explicit id must exist:
 * the action calls `verify` with the number of leads it touched, in its transaction, and an
 * unknown id makes it a 404 (rolled back). Looking them up only when fewer moved than were
 * named spares a second read of every lead (1 s for 100,000 on PGlite).
 */
export async function selectionConditions(
  db: Queryable,
  target: { leads?: number[]; filter?: LeadSelection },
  statuses: EntryStatus[],
  params: Params,
): Promise<{ where: string[]; verify(touched: number): Promise<void> }> {
  if (target.filter) {
    const sel = parse(leadSelection, target.filter);
    const landings = await getLandings(db, sel.ids);
    const status = statuses.includes(sel.entry_status) ? sel.entry_status : [];
    const where = [...leadConditions(landings, status, sel.filters, params), ...personPaths(db, landings, sel.filters, params).map((p) => p.sql)];
    // The list the user saw: none of the leads that arrived above its ceiling since.
    if (sel.ceiling !== undefined) where.push(`l.id <= ${params.add(sel.ceiling)}::bigint`);
    return { where, verify: async () => undefined };
  }
  const ids = [...new Set(target.leads ?? [])];
  return {
    where: [`l.id = ANY(${params.add(ids)}::bigint[])`, `l.entry_status = ANY(${params.add(statuses)}::text[])`],
    async verify(touched) {
      if (touched === ids.length) return;
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE id = ANY($1::bigint[])', [ids]);
      if (rows[0].n !== ids.length) throw leadsNotFound();
    },
  };
}
