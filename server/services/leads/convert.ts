import type { ConvertRequest, LeadRow } from '../../../src/api/leads/contract';
import type { AppContext } from '../../context';
import { offerLeads } from '../delivery/offer';
import { writeEvents } from '../events/outbox';
import type { SessionUser } from '../auth/sessions';
import { getLanding } from './landings';
import { insertLeads, type NewLead } from './insert';
import { deriveFields, normalizeCell, setValue } from './normalize';
import { leadsNotFound } from './selection';
import { audit } from '../audit';

type Original = Pick<LeadRow, 'id' | 'entry_status' | 'source' | 'utm_source' | 'utm_medium' | 'utm_campaign' | 'url_presale' | 'visitor'> & {
  landing_id: number;
  data: Record<string, unknown>;
};

/**
 * Copies leads into another landing: the copies arrive as new leads (form values kept for the
 * column keys both landings share, derived fields recomputed); the originals become converted
 * and point to their copy. Leads already converted, already in that landing, or no longer in the
 * status the user saw are left alone.
 */
export async function convertLeads(ctx: Pick<AppContext, 'db' | 'jobs' | 'log'>, user: SessionUser, req: ConvertRequest) {
  return ctx.db.tx(async (q) => {
    const target = await getLanding(q, req.landing);
    const ids = [...new Set(req.leads)];
    const exist = (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM leads WHERE id = ANY($1::bigint[])', [ids])).rows[0].n;
    if (exist !== ids.length) throw leadsNotFound();

    const { rows } = await q.query<Original>(
      `SELECT id, landing_id, entry_status, data, source, utm_source, utm_medium, utm_campaign, url_presale, visitor FROM leads
        WHERE id = ANY($1::bigint[]) AND entry_status <> 'converted' AND landing_id <> $2
          AND ($3::text IS NULL OR entry_status = $3) ORDER BY id FOR UPDATE`,
      [ids, target.id, req.from_status ?? null],
    );
    const copies: NewLead[] = rows.map((o) => {
      const data: Record<string, unknown> = {};
      for (const column of target.columns) {
        if (!Object.prototype.hasOwnProperty.call(o.data, column.key)) continue;
        const cell = normalizeCell({ ...column, required: false }, o.data[column.key] as string);
        setValue(data, column.key, cell.ok ? cell.value : o.data[column.key]);
      }
      return { ...o, data, ...deriveFields(target.columns, data) };
    });
    const inserted = await insertLeads(q, target.id, copies, false);
    await q.query(
      `UPDATE leads l SET entry_status = 'converted', convert = c.copy, updated_at = now()
         FROM unnest($1::bigint[], $2::bigint[]) AS c(orig, copy) WHERE l.id = c.orig`,
      [rows.map((r) => r.id), inserted.ids],
    );
    const groups = new Map<string, Array<Original & { copy: number }>>();
    rows.forEach((o, i) => {
      const key = `${o.landing_id}/${o.entry_status}`;
      groups.set(key, [...(groups.get(key) ?? []), { ...o, copy: inserted.ids[i]! }]);
    });
    await writeEvents(
      q,
      'leads.converted',
      [...groups.values()].map((g) => ({
        landing_id: g[0]!.landing_id,
        ids: g.map((o) => o.id),
        from: g[0]!.entry_status,
        to_landing_id: target.id,
        copy_ids: g.map((o) => o.copy),
        by: { id: user.id, name: user.name },
      })),
      'all',
    );
    await audit(q, { actorId: user.id, action: 'convert', entity: 'leads', count: rows.length, details: { landing: target.id } });
    offerLeads(ctx, q, { leads: inserted.ids });
    return { data: { count: rows.length, ids: inserted.ids }, message: 'Leads convertis' };
  });
}
