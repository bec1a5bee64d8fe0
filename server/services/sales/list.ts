import type { LeadSale } from '../../../src/api/sales/contract';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../errors';

/** One sale as the API shows it (`s` a lead_sales row, `c` its customer, `r` its rule or null), oldest first when aggregated. */
const saleJson = `json_agg(json_build_object(
    'id', s.id, 'lead_id', s.lead_id, 'customer', json_build_object('id', c.id, 'name', c.name),
    'rule', CASE WHEN r.id IS NULL THEN NULL ELSE json_build_object('id', r.id, 'name', r.name) END,
    'report_id', s.report_id, 'export_id', s.export_id, 'channel', s.channel, 'price_cents', s.price_cents,
    'sold_at', to_json(s.sold_at), 'returned_at', to_json(s.returned_at), 'return_reason', s.return_reason) ORDER BY s.sold_at, s.id)`;
const salesFrom = 'FROM lead_sales s JOIN customers c ON c.id = s.customer_id LEFT JOIN rules r ON r.id = s.rule_id';

/** Every sale of lead `leadId` of landing `landingId`, oldest first; a lead of another landing is not found. */
export async function listLeadSales(db: Queryable, landingId: number, leadId: number): Promise<LeadSale[]> {
  const { rows } = await db.query<{ sales: LeadSale[] }>(
    `SELECT COALESCE((SELECT ${saleJson} ${salesFrom} WHERE s.lead_id = l.id), '[]') AS sales
       FROM leads l WHERE l.id = $1 AND l.landing_id = $2`,
    [leadId, landingId],
  );
  if (!rows[0]) throw notFound('Lead introuvable');
  return rows[0].sales;
}

/** The sales of a day's report, oldest first: what the report of the day's leads lists, each returnable from there. */
export async function listReportSales(db: Queryable, reportId: number): Promise<LeadSale[]> {
  const { rows } = await db.query<{ sales: LeadSale[] }>(
    `SELECT COALESCE((SELECT ${saleJson} ${salesFrom} WHERE s.report_id = rep.id), '[]') AS sales FROM reports rep WHERE rep.id = $1`,
    [reportId],
  );
  if (!rows[0]) throw notFound('Rapport introuvable');
  return rows[0].sales;
}
