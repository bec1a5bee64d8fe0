import { formatCents } from '../../../src/shared/money';
import type { Queryable } from '../../db/connection';
import { conflict } from '../../errors';

/** The first day of the current Paris calendar month, the key of `customer_months`. */
export const parisMonthSql = `date_trunc('month', now() AT TIME ZONE 'Europe/Paris')::date`;

/**
 * Counts `sales` sales worth `cents` in the customer's current Paris month (customer_months, in the
 * caller's transaction), unless its sales minus credits would then pass its monthly budget: 409,
 * nothing counted (the caller's transaction rolls back its sales). One conditional UPDATE on the
 * month's row: PostgreSQL re-reads a row another transaction just bumped before checking, so two
 * sales at once never pass the budget between them.
 */
export async function claimMonth(q: Queryable, customerId: number, sales: number, cents: number): Promise<void> {
  await q.query(`INSERT INTO customer_months (customer_id, month) VALUES ($1, ${parisMonthSql}) ON CONFLICT DO NOTHING`, [customerId]);
  const { rows } = await q.query<{ ok: boolean; budget: number | null; used: number }>(
    `WITH bumped AS (
       UPDATE customer_months m SET sales = m.sales + $2, sold_cents = m.sold_cents + $3
         FROM customers c
        WHERE m.customer_id = $1 AND m.month = ${parisMonthSql} AND c.id = m.customer_id
          AND (c.monthly_budget_cents IS NULL OR m.sold_cents - m.credits_cents + $3 <= c.monthly_budget_cents)
       RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM bumped) AS ok, c.monthly_budget_cents::float8 AS budget, (m.sold_cents - m.credits_cents)::float8 AS used
       FROM customer_months m JOIN customers c ON c.id = m.customer_id
      WHERE m.customer_id = $1 AND m.month = ${parisMonthSql}`,
    [customerId, sales, cents],
  );
  const { ok, budget, used } = rows[0]!;
  if (!ok) {
    const fr = (c: number) => formatCents(c, 'fr');
    throw conflict(
      `Budget mensuel dépassé : ce client a un budget de ${fr(budget!)}, dont ${fr(used)} déjà engagés ce mois-ci ; cette vente de ${sales} lead${sales > 1 ? 's' : ''} (${fr(cents)}) le dépasserait`,
    );
  }
}
