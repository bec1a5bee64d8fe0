import type { Queryable } from '../../server/db/connection';

/** The lead totals of a database at one moment (one statement: one snapshot). */
export interface LeadLedger {
  total: number;
  byStatus: Record<string, number>;
  /** The same per status, from the monthly statistics the triggers keep. */
  monthStats: Record<string, number>;
  /** Sum of the rules' day counters (reports.count). */
  reported: number;
  /** Leads whose routing decision is 'delivered'. */
  delivered: number;
  maxLeadId: number;
  maxExportId: number;
}

export async function leadLedger(db: Queryable): Promise<LeadLedger> {
  const { rows } = await db.query<{
    total: number;
    by_status: Record<string, number> | null;
    month_stats: Record<string, number> | null;
    reported: number;
    delivered: number;
    max_lead_id: number;
    max_export_id: number;
  }>(
    `SELECT (SELECT count(*) FROM leads)::int AS total,
            (SELECT json_object_agg(entry_status, n) FROM (SELECT entry_status, count(*)::int AS n FROM leads GROUP BY 1) s) AS by_status,
            (SELECT json_object_agg(entry_status, n)
               FROM (SELECT entry_status, sum(value)::int AS n FROM lead_month_stats GROUP BY 1 HAVING sum(value) <> 0) s) AS month_stats,
            (SELECT coalesce(sum(count), 0) FROM reports)::int AS reported,
            (SELECT count(*) FROM lead_routings WHERE outcome = 'delivered')::int AS delivered,
            (SELECT coalesce(max(id), 0) FROM leads)::int AS max_lead_id,
            (SELECT coalesce(max(id), 0) FROM exports)::int AS max_export_id`,
  );
  const r = rows[0];
  return {
    total: r.total,
    byStatus: r.by_status ?? {},
    monthStats: r.month_stats ?? {},
    reported: r.reported,
    delivered: r.delivered,
    maxLeadId: r.max_lead_id,
    maxExportId: r.max_export_id,
  };
}

/**
 * Checks that the totals add up exactly and answers what does not (empty: all reconciled):
 * the leads are the sum of their statuses, and the monthly statistics agree status by status;
 * every rule's day counter equals the leads delivered under that report; and every lead export
 * made since `since` (all of them without it) counts exactly the leads still extracted under it,
 * sold to its buyer. Call it once no request is under way (a server stopped, or idle).
 */
export async function reconcile(db: Queryable, since?: LeadLedger): Promise<{ ledger: LeadLedger; problems: string[] }> {
  const ledger = await leadLedger(db);
  const problems: string[] = [];
  const summed = Object.values(ledger.byStatus).reduce((a, b) => a + b, 0);
  if (summed !== ledger.total) problems.push(`${ledger.total} leads but ${summed} over the statuses`);
  for (const status of new Set([...Object.keys(ledger.byStatus), ...Object.keys(ledger.monthStats)])) {
    const [leads, stats] = [ledger.byStatus[status] ?? 0, ledger.monthStats[status] ?? 0];
    if (leads !== stats) problems.push(`${status}: ${leads} leads, ${stats} in lead_month_stats`);
  }

  const reports = await db.query<{ id: number; count: number; delivered: number }>(
    `SELECT r.id, r.count, count(lr.lead_id)::int AS delivered
       FROM reports r LEFT JOIN lead_routings lr ON lr.report_id = r.id AND lr.outcome = 'delivered'
      GROUP BY r.id HAVING r.count <> count(lr.lead_id) ORDER BY r.id LIMIT 20`,
  );
  for (const r of reports.rows) problems.push(`report ${r.id}: count ${r.count}, ${r.delivered} leads delivered under it`);
  if (ledger.reported !== ledger.delivered) problems.push(`reports count ${ledger.reported} deliveries, routings ${ledger.delivered}`);

  const exports = await db.query<{ id: number; count: number; extracted: number }>(
    `SELECT e.id, e.count,
            (SELECT count(*) FROM leads l
              WHERE l.export_id = e.id AND l.entry_status = 'extracted' AND l.sold_to IS NOT DISTINCT FROM e.for_customer)::int AS extracted
       FROM exports e
      WHERE NOT e.big_export AND e.id > $1`,
    [since?.maxExportId ?? 0],
  );
  for (const e of exports.rows) if (e.count !== e.extracted) problems.push(`export ${e.id}: count ${e.count}, ${e.extracted} leads extracted under it`);
  return { ledger, problems };
}

/** The ids of the leads extracted under each export, by the export's download token. */
export async function leadsOfExports(db: Queryable, tokens: string[]): Promise<Map<string, number[]>> {
  const { rows } = await db.query<{ token: string; ids: number[] | null }>(
    `SELECT e.token, array_agg(l.id ORDER BY l.id) FILTER (WHERE l.id IS NOT NULL) AS ids
       FROM exports e LEFT JOIN leads l ON l.export_id = e.id AND l.entry_status = 'extracted'
      WHERE e.token = ANY($1::text[]) GROUP BY e.token`,
    [tokens],
  );
  return new Map(rows.map((r) => [r.token, (r.ids ?? []).map(Number)]));
}
