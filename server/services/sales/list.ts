import type { LeadSale } from '../../../src/api/sales/contract';
import type { Queryable } from '../../db/connection';
import { notFound } from '../../errors';

/** Every sale of lead `leadId` of landing `landingId`, oldest first; a lead of another landing is not found. */
export async function listLeadSales(db: Queryable, landingId: number, leadId: number): Promise<LeadSale[]> {
  const { rows } = await db.query<{ sales: LeadSale[] }>(
    `SELECT COALESCE((SELECT json_agg(json_build_object(
              'id', s.id, 'customer', json_build_object('id', c.id, 'name', c.name),
              'rule', CASE WHEN r.id IS NULL THEN NULL ELSE json_build_object('id', r.id, 'name', r.name) END,
              'report_id', s.report_id, 'export_id', s.export_id, 'channel', s.channel, 'price_cents', s.price_cents,
              'sold_at', to_json(s.sold_at), 'returned_at', to_json(s.returned_at)) ORDER BY s.sold_at, s.id)
              FROM lead_sales s JOIN customers c ON c.id = s.customer_id LEFT JOIN rules r ON r.id = s.rule_id
             WHERE s.lead_id = l.id), '[]') AS sales
       FROM leads l WHERE l.id = $1 AND l.landing_id = $2`,
    [leadId, landingId],
  );
  if (!rows[0]) throw notFound('Lead introuvable');
  return rows[0].sales;
}
