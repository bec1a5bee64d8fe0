import { parisMonthSql } from './months';

/**
 * Credits returned sales on their customers' month of the return (Paris calendar): one more return
 * and the sale's price in customer_months, the counter the budget and the statements read. `returned`
 * is a relation (a table expression or a CTE) with the returned sales' customer_id and price_cents;
 * run in the transaction that returns them.
 */
export const creditMonthsSql = (returned: string) => `
  INSERT INTO customer_months AS m (customer_id, month, returns, credits_cents)
  SELECT r.customer_id, ${parisMonthSql}, count(*), sum(r.price_cents) FROM ${returned} r GROUP BY r.customer_id
  ON CONFLICT (customer_id, month) DO UPDATE SET returns = m.returns + EXCLUDED.returns, credits_cents = m.credits_cents + EXCLUDED.credits_cents`;
