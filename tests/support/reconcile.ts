import type { Queryable } from '../../server/db/connection';

/** Every lead counted, and what the exports and the delivery engine say of them. */
export interface LeadTotals {
  total: number;
  /** Leads per status; statuses without leads are absent. */
  byStatus: Record<string, number>;
  /** Leads sold under an export, and the sum of the exports' own counts (equal when nothing was lost). */
  exported: number;
  exportCounts: number;
  /** Leads a rule took (their routing says delivered), and the sum of the rules' day counters. */
  delivered: number;
  reportCounts: number;
  /** Rules whose counter of a day passed their cap (never any). */
  overCap: number;
}

/** Counts straight from the database, so that a test compares before and after exactly. */
export async function leadTotals(db: Queryable): Promise<LeadTotals> {
  const { rows } = await db.query<{ status: string; n: number }>('SELECT entry_status AS status, count(*)::int AS n FROM leads GROUP BY 1');
  const byStatus = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  const one = async (sql: string) => (await db.query<{ n: number }>(sql)).rows[0].n;
  return {
    total: rows.reduce((sum, r) => sum + r.n, 0),
    byStatus,
    exported: await one('SELECT count(*)::int AS n FROM leads WHERE export_id IS NOT NULL'),
    exportCounts: await one('SELECT coalesce(sum(count), 0)::int AS n FROM exports WHERE NOT big_export'),
    delivered: await one(
      `SELECT count(*)::int AS n FROM lead_routings r JOIN leads l ON l.id = r.lead_id AND l.rapport_id = r.report_id WHERE r.outcome = 'delivered'`,
    ),
    reportCounts: await one('SELECT coalesce(sum(count), 0)::int AS n FROM reports'),
    overCap: await one('SELECT count(*)::int AS n FROM reports WHERE count > leads_number'),
  };
}

/**
 * Checks, on a database at rest, that the lead totals add up exactly, and answers what does not
 * (empty: all reconciled): the leads counted one by one are the sum over their statuses, and the
 * monthly statistics and the select columns' counts (kept by triggers) agree; every rule's day counter equals
 * the leads delivered under that report, and none passed its cap; every lead export made after
 * export `exportsAfter` counts exactly the leads still extracted under it, sold to its buyer.
 */
export async function reconcile(db: Queryable, { exportsAfter = 0 } = {}): Promise<{ totals: LeadTotals; problems: string[] }> {
  const totals = await leadTotals(db);
  const problems: string[] = [];
  const counted = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM leads')).rows[0].n;
  if (counted !== totals.total) problems.push(`${counted} leads but ${totals.total} over the statuses`);
  const stats = await db.query<{ status: string; n: number }>(
    'SELECT entry_status AS status, sum(value)::int AS n FROM lead_month_stats GROUP BY 1 HAVING sum(value) <> 0',
  );
  const byStats = Object.fromEntries(stats.rows.map((r) => [r.status, r.n]));
  for (const status of new Set([...Object.keys(totals.byStatus), ...Object.keys(byStats)])) {
    if ((totals.byStatus[status] ?? 0) !== (byStats[status] ?? 0))
      problems.push(`${status}: ${totals.byStatus[status] ?? 0} leads, ${byStats[status] ?? 0} in lead_month_stats`);
  }

  problems.push(...(await selectStatsDrift(db)));

  if (totals.delivered !== totals.reportCounts) problems.push(`rules' day counters add up to ${totals.reportCounts}, ${totals.delivered} leads delivered`);
  if (totals.overCap) problems.push(`${totals.overCap} day counters past their cap`);
  const reports = await db.query<{ id: number; count: number; delivered: number }>(
    `SELECT r.id, r.count, count(lr.lead_id)::int AS delivered
       FROM reports r LEFT JOIN lead_routings lr ON lr.report_id = r.id AND lr.outcome = 'delivered'
      GROUP BY r.id HAVING r.count <> count(lr.lead_id) ORDER BY r.id LIMIT 20`,
  );
  for (const r of reports.rows) problems.push(`report ${r.id}: count ${r.count}, ${r.delivered} leads delivered under it`);

  const exports = await db.query<{ id: number; count: number; extracted: number }>(
    `SELECT e.id, e.count,
            (SELECT count(*) FROM leads l
              WHERE l.export_id = e.id AND l.entry_status = 'extracted' AND l.sold_to IS NOT DISTINCT FROM e.for_customer)::int AS extracted
       FROM exports e
      WHERE NOT e.big_export AND e.id > $1`,
    [exportsAfter],
  );
  for (const e of exports.rows) if (e.count !== e.extracted) problems.push(`export ${e.id}: count ${e.count}, ${e.extracted} leads extracted under it`);
  return { totals, problems };
}

/** Where lead_select_stats (kept by triggers: select columns, UTM values, presale pages) differs from the leads counted again, a line each (at most 20). */
export async function selectStatsDrift(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ landing_id: number; key: string; entry_status: string; month: string; value: string; kept: number; counted: number }>(
    `WITH counted AS (
       SELECT l.landing_id, k.key, l.entry_status, lead_month(l.created_at) AS month, l.data ->> k.key AS value, count(*)::int AS n
         FROM leads l JOIN (SELECT id, landing_select_keys(columns) AS key FROM landings) k ON k.id = l.landing_id
        WHERE l.data ->> k.key IS NOT NULL GROUP BY 1, 2, 3, 4, 5
        UNION ALL
       SELECT l.landing_id, v.key, l.entry_status, lead_month(l.created_at), v.value, count(*)::int
         FROM leads l
        CROSS JOIN LATERAL (VALUES ('utm_source', l.utm_source), ('utm_medium', l.utm_medium), ('utm_campaign', l.utm_campaign), ('url_presale', l.url_presale)) v (key, value)
        WHERE v.value IS NOT NULL GROUP BY 1, 2, 3, 4, 5
     ), kept AS (SELECT landing_id, key, entry_status, month, value, count AS n FROM lead_select_stats WHERE count <> 0)
     SELECT landing_id, key, entry_status, month::text, value, coalesce(kept.n, 0) AS kept, coalesce(counted.n, 0) AS counted
       FROM counted FULL JOIN kept USING (landing_id, key, entry_status, month, value)
      WHERE counted.n IS DISTINCT FROM kept.n ORDER BY 1, 2, 3, 4, 5 LIMIT 20`,
  );
  return rows.map((r) => `${r.landing_id} ${r.key}=${r.value} ${r.entry_status} ${r.month}: ${r.kept} in lead_select_stats, ${r.counted} leads`);
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
