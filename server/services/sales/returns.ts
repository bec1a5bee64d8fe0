import type { ReturnReason } from '../../../src/api/sales/contract';
import type { AppContext } from '../../context';
import { retryOnConflict } from '../../db/retry';
import { conflict, notFound } from '../../errors';
import { raiseAlert } from '../alerts/raise';
import { audit } from '../audit';
import { offerLeads } from '../delivery/offer';
import { statusEvents } from '../leads/status';
import { creditMonthsSql } from './credits';

export const LATE_MESSAGE = 'Délai de retour dépassé';
export const saleNotFound = () => notFound('Vente introuvable');

/** A sale as its return checks it: its customer's window and rate, whether it is still returnable now. */
interface Returnable {
  id: number;
  lead_id: number;
  customer_id: number;
  price_cents: number;
  returned: boolean;
  /** Past the customer's return_days since the sale (days as the clock runs), or the customer takes no returns. */
  late: boolean;
  max_return_rate: string | null;
}

const returnableSql = `
  SELECT s.id, s.lead_id, s.customer_id, s.price_cents, s.returned_at IS NOT NULL AS returned, c.max_return_rate,
         c.return_days = 0 OR now() > s.sold_at + c.return_days * interval '24 hours' AS late
    FROM lead_sales s JOIN customers c ON c.id = s.customer_id WHERE s.id = $1`;

/** Why a sale cannot be returned now (409), or nothing: already returned, then out of its window. */
function refusal(sale: Returnable): Error | null {
  if (sale.returned) return conflict('Cette vente a déjà été retournée');
  if (sale.late) return conflict(LATE_MESSAGE);
  return null;
}

/** Reads a sale and says whether it can be returned now (its public page asks before offering the form). */
export async function returnableSale(ctx: Pick<AppContext, 'db'>, saleId: number): Promise<{ sale: Returnable; refused: Error | null }> {
  const sale = (await ctx.db.query<Returnable>(returnableSql, [saleId])).rows[0];
  if (!sale) throw saleNotFound();
  return { sale, refused: refusal(sale) };
}

/**
 * The customer's returns of the month (Paris) pass its max_return_rate percent of the month's
 * sales, counted from lead_sales (re-injections are the admin's, not the customer's: not counted).
 * Read under the customer's month row, locked by the credit just before: concurrent returns of one
 * customer are counted one after the other.
 */
const overRateSql = `
  WITH month AS (SELECT date_trunc('month', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris' AS start),
       n AS (SELECT (SELECT count(*) FROM lead_sales s, month WHERE s.customer_id = $1 AND s.returned_at >= month.start AND s.return_reason <> 'reinjected') AS returns,
                    (SELECT count(*) FROM lead_sales s, month WHERE s.customer_id = $1 AND s.sold_at >= month.start) AS sales)
  SELECT returns * 100 > $2::numeric * sales AS over, round(returns * 100.0 / greatest(sales, 1), 1)::float8 AS rate FROM n`;

/** Refused past the customer's return rate: the return rolls back, then the admins are alerted. */
class ReturnRateExceeded extends Error {
  constructor(
    readonly customerId: number,
    readonly rate: number,
  ) {
    super('Taux de retour dépassé');
  }
}

/**
 * Alerts the admins that a customer's returns pass its rate, once a day per customer: every refused
 * return would otherwise raise one.
 */
async function alertReturnRate(ctx: AppContext, { customerId, rate }: ReturnRateExceeded): Promise<void> {
  await ctx.db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock(7340034, $1)', [customerId]);
    const recent = await q.query(
      `SELECT 1 FROM alerts WHERE kind = 'return_rate_exceeded' AND params->>'customer_id' = $1::text AND created_at > now() - interval '1 day'`,
      [customerId],
    );
    if (recent.rows.length === 0) await raiseAlert(q, { kind: 'return_rate_exceeded', customerId, rate });
  });
}

/** The lead goes back to new, its buyer and report those of its latest sale still standing (none: null). */
const backToNewSql = `
  WITH moved AS (
    UPDATE leads l SET entry_status = 'new', sold_to = latest.name, rapport_id = latest.report_id, export_id = latest.export_id, updated_at = now()
      FROM (SELECT 1) one
      LEFT JOIN LATERAL (SELECT c.name, s.report_id, s.export_id FROM lead_sales s JOIN customers c ON c.id = s.customer_id
                          WHERE s.lead_id = $1 AND s.returned_at IS NULL ORDER BY s.sold_at DESC, s.id DESC LIMIT 1) latest ON true
     WHERE l.id = $1 AND l.entry_status = 'extracted'
    RETURNING l.id, l.landing_id, 'extracted'::text AS prev
  ), told AS (${statusEvents('moved', 'prev', `'new'`, `(SELECT jsonb_build_object('id', id, 'name', name) FROM users WHERE id = $2::int)`)})
  SELECT id FROM moved`;

/** The `lead.returned` event of a sale. */
const returnedEventSql = `
  INSERT INTO events (type, audience, data)
  SELECT 'lead.returned', 'admins', jsonb_build_object('lead_id', l.id, 'landing_id', l.landing_id, 'sale_id', s.id, 'customer', jsonb_build_object('id', c.id, 'name', c.name))
    FROM lead_sales s JOIN leads l ON l.id = s.lead_id JOIN customers c ON c.id = s.customer_id WHERE s.id = $1`;

export interface ReturnInput {
  reason: ReturnReason;
  comment?: string | undefined;
}

/**
 * Returns a sale (an admin, or the customer through its link: `actorId` null), in one transaction:
 * the sale returned with its reason, its price credited on the customer's month, the lead back to
 * new and, once committed, offered again to the other rules (never to the returner: excluded from
 * this offer, and its returned sale keeps the person in its dedupe window). A lead no longer
 * extracted (archived, converted since) keeps its status. 404 unknown sale; 409 already returned,
 * out of the window, or past the customer's return rate.
 */
export async function returnSale(ctx: AppContext, saleId: number, input: ReturnInput, actorId: number | null) {
  try {
    return await recordReturn(ctx, saleId, input, actorId);
  } catch (err) {
    if (!(err instanceof ReturnRateExceeded)) throw err;
    await alertReturnRate(ctx, err);
    throw conflict(err.message);
  }
}

function recordReturn(ctx: AppContext, saleId: number, input: ReturnInput, actorId: number | null) {
  return retryOnConflict(() =>
    ctx.db.tx(async (q) => {
      const sale = (await q.query<Returnable>(`${returnableSql} FOR UPDATE OF s`, [saleId])).rows[0];
      if (!sale) throw saleNotFound();
      const refused = refusal(sale);
      if (refused) throw refused;
      const { rows } = await q.query<{ returned_at: string }>(
        `UPDATE lead_sales SET returned_at = now(), return_reason = $2, return_comment = $3 WHERE id = $1 RETURNING to_json(returned_at) #>> '{}' AS returned_at`,
        [saleId, input.reason, input.comment || null],
      );
      await q.query(creditMonthsSql('(SELECT customer_id, price_cents FROM lead_sales WHERE id = $1)'), [saleId]);
      if (sale.max_return_rate !== null) {
        const { over, rate } = (await q.query<{ over: boolean; rate: number }>(overRateSql, [sale.customer_id, sale.max_return_rate])).rows[0]!;
        if (over) throw new ReturnRateExceeded(sale.customer_id, rate);
      }
      await q.query(returnedEventSql, [saleId]);
      const moved = await q.query(backToNewSql, [sale.lead_id, actorId]);
      await audit(q, {
        actorId,
        action: 'sales.return',
        entity: 'sale',
        count: 1,
        details: { sale_id: saleId, lead_id: sale.lead_id, customer_id: sale.customer_id, reason: input.reason, by: actorId === null ? 'link' : 'admin' },
      });
      if (moved.rows.length) offerLeads(ctx, q, { leads: [sale.lead_id], excludeCustomerId: sale.customer_id });
      return { id: saleId, lead_id: sale.lead_id, returned_at: rows[0].returned_at, return_reason: input.reason, credit_cents: sale.price_cents };
    }),
  );
}
