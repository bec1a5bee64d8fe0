import type { Queryable } from './connection';

/**
 * The money screens' demo (issue 26): each customer's price, one with a monthly budget and one with
 * a return rate, a rule with its own price; the past sales priced as they would have been, a few of
 * the last weeks' returned with their reasons, the month counters those make, and the alerts of
 * the rules that filled these three days (as already mailed). Deterministic, like the rest of the demo.
 */
export async function seedMoney(q: Queryable, now: Date): Promise<void> {
  await q.query(
    `UPDATE customers c SET default_price_cents = v.price, max_return_rate = v.rate
       FROM (VALUES ('contact@eco-habitat-sud.fr', 1800, NULL), ('leads@soleil-conseil.fr', 2500, NULL), ('achats@renovexpert.fr', 1200, 15))
            AS v (email, price, rate)
      WHERE lower(c.email) = v.email`,
  );
  await q.query(`UPDATE rules SET price_cents = 2200 WHERE name = 'Solaire France entière'`);
  await q.query(
    `UPDATE lead_sales s SET price_cents = COALESCE((SELECT r.price_cents FROM rules r WHERE r.id = s.rule_id), c.default_price_cents)
       FROM customers c WHERE c.id = s.customer_id`,
  );
  // One live sale in 25 of the last five weeks returned two days later, the reasons in turn.
  await q.query(
    `UPDATE lead_sales SET returned_at = sold_at + interval '2 days',
            return_reason = (ARRAY['wrong_number', 'unreachable', 'duplicate', 'out_of_area', 'already_customer'])[1 + (id / 25) % 5]
      WHERE channel = 'live' AND id % 25 = 0 AND sold_at > $1::timestamptz - interval '35 days' AND sold_at < $1::timestamptz - interval '2 days'`,
    [now],
  );
  await q.query(
    `INSERT INTO customer_months (customer_id, month, sales, sold_cents, returns, credits_cents)
     SELECT customer_id, month, sum(sales), sum(sold), sum(returns), sum(credits)
       FROM (SELECT customer_id, date_trunc('month', sold_at AT TIME ZONE 'Europe/Paris')::date AS month, 1 AS sales, price_cents AS sold, 0 AS returns, 0 AS credits
               FROM lead_sales
             UNION ALL
             SELECT customer_id, date_trunc('month', returned_at AT TIME ZONE 'Europe/Paris')::date, 0, 0, 1, price_cents
               FROM lead_sales WHERE returned_at IS NOT NULL) AS moves
      GROUP BY customer_id, month
     ON CONFLICT (customer_id, month) DO UPDATE
        SET sales = EXCLUDED.sales, sold_cents = EXCLUDED.sold_cents, returns = EXCLUDED.returns, credits_cents = EXCLUDED.credits_cents`,
  );
  // Soleil Conseil's budget: this month's spending so far is 60 % of it, rounded to the hundred euros.
  await q.query(
    `UPDATE customers c SET monthly_budget_cents = greatest(100000, ceil(COALESCE(m.sold_cents - m.credits_cents, 0) / 0.6 / 10000) * 10000)
       FROM customers s LEFT JOIN customer_months m ON m.customer_id = s.id AND m.month = date_trunc('month', $1::timestamptz AT TIME ZONE 'Europe/Paris')::date
      WHERE lower(s.email) = 'leads@soleil-conseil.fr' AND c.id = s.id`,
    [now],
  );
  await q.query(
    `INSERT INTO alerts (kind, params, created_at, mailed_at)
     SELECT 'cap_reached', jsonb_build_object('rule_id', rule_id, 'span', 'day'), last_delivery_at, last_delivery_at
       FROM reports WHERE date > ($1::timestamptz AT TIME ZONE 'Europe/Paris')::date - 3 AND count >= leads_number AND last_delivery_at IS NOT NULL`,
    [now],
  );
}
