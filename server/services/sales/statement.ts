import type { Statement, StatementLine } from '../../../src/api/customers/contract';
import { parisMonth } from '../../../src/shared/dates';
import type { Queryable } from '../../db/connection';
import { frenchOrder } from '../../db/french-order';
import { notFound, validationFailed } from '../../errors';
import { customerNotFound } from '../lives/customers';

/**
 * A customer's month from its sales (lead_sales, the source of truth), on the Paris calendar: a
 * sale counts on the day it was sold, at the price fixed on it; a return's credit (the sale's
 * price) on the day it was returned, in that month's statement, whenever the sale was. Lines by
 * date, rule name (in French order; sales without a rule last), then channel.
 */
export async function customerStatement(db: Queryable, customerId: number, month: string): Promise<Statement> {
  if (month > parisMonth()) throw validationFailed({ month: `Mois à venir : pas encore de relevé pour ${month}` });
  const customer = (await db.query<Statement['customer']>('SELECT id, name, email FROM customers WHERE id = $1', [customerId])).rows[0];
  if (!customer) throw notFound(customerNotFound);
  const { rows } = await db.query<StatementLine>(
    `WITH bounds AS (
       SELECT ($2 || '-01')::date::timestamp AT TIME ZONE 'Europe/Paris' AS lo,
              (($2 || '-01')::date + interval '1 month')::timestamp AT TIME ZONE 'Europe/Paris' AS hi
     ), moves AS (
       SELECT (s.sold_at AT TIME ZONE 'Europe/Paris')::date AS day, s.rule_id, s.channel, 1 AS leads, 0 AS returned, s.price_cents AS amount, 0 AS credit
         FROM lead_sales s, bounds b WHERE s.customer_id = $1 AND s.sold_at >= b.lo AND s.sold_at < b.hi
       UNION ALL
       SELECT (s.returned_at AT TIME ZONE 'Europe/Paris')::date, s.rule_id, s.channel, 0, 1, 0, s.price_cents
         FROM lead_sales s, bounds b WHERE s.customer_id = $1 AND s.returned_at >= b.lo AND s.returned_at < b.hi
     )
     SELECT to_char(m.day, 'YYYY-MM-DD') AS date,
            CASE WHEN m.rule_id IS NULL THEN NULL ELSE json_build_object('id', r.id, 'name', r.name) END AS rule,
            m.channel, sum(m.leads)::int AS leads, sum(m.returned)::int AS returned,
            sum(m.amount)::float8 AS amount_cents, sum(m.credit)::float8 AS credits_cents
       FROM moves m LEFT JOIN rules r ON r.id = m.rule_id
      GROUP BY m.day, m.rule_id, r.id, r.name, m.channel
      ORDER BY m.day, ${frenchOrder('r.name')} NULLS LAST, r.id NULLS LAST, m.channel`,
    [customerId, month],
  );
  const total = rows.reduce((sum, l) => sum + l.amount_cents, 0);
  const credits = rows.reduce((sum, l) => sum + l.credits_cents, 0);
  return { customer, month, lines: rows, total_cents: total, credits_cents: credits, due_cents: total - credits };
}
