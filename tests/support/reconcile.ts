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
    delivered: await one(`SELECT count(*)::int AS n FROM lead_routings r JOIN leads l ON l.id = r.lead_id AND l.rapport_id = r.report_id WHERE r.outcome = 'delivered'`),
    reportCounts: await one('SELECT coalesce(sum(count), 0)::int AS n FROM reports'),
    overCap: await one('SELECT count(*)::int AS n FROM reports WHERE count > leads_number'),
  };
}
