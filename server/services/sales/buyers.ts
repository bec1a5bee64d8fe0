import type { Queryable } from '../../db/connection';

/** A customer as an export sells to it: its id, how many days it never gets the same person again, its default price (cents). */
export interface Buyer {
  id: number;
  dedupe_days: number;
  default_price_cents: number;
}

/**
 * The customer an export sells to: the one its free-typed 'Vendu à' names, by folded name
 * (customer_name_key, migration 082: accents, case, typographic apostrophes and repeated spaces
 * aside; the lowest id on a tie), else, for an export made from a report, the report's rule's.
 */
export async function buyerOf(q: Queryable, name: string | null, reportId: number | null = null): Promise<Buyer | null> {
  const { rows } = await q.query<Buyer>(
    `SELECT id, dedupe_days, default_price_cents FROM (
       (SELECT c.id, c.dedupe_days, c.default_price_cents, 1 AS rank FROM customers c WHERE $1::text IS NOT NULL AND customer_name_key(c.name) = customer_name_key($1) ORDER BY c.id LIMIT 1)
       UNION ALL
       (SELECT r.customer_id, c.dedupe_days, c.default_price_cents, 2 FROM reports rep JOIN rules r ON r.id = rep.rule_id JOIN customers c ON c.id = r.customer_id WHERE rep.id = $2)
     ) b ORDER BY rank LIMIT 1`,
    [name, reportId],
  );
  return rows[0] ?? null;
}

/**
 * Holds, until the end of `q`'s transaction, the right to sell to customer `customerId` in bulk:
 * two exports to one customer, or an export and live sales, check its dedupe window one after the
 * other, so neither misses the person the other has just sold. Take it before the statement that
 * reads the window: under READ COMMITTED that statement then sees the other's committed sales.
 */
export async function lockBuyer(q: Queryable, customerId: number): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock(7340033, $1)', [customerId]);
}

/**
 * Live sales' share of that right, for a batch's customers: live sales to one customer run side by
 * side (each also locks its own person), while an export to that customer waits for them, and they
 * for it. Taken in the customers' order, so that two batches never wait on each other crosswise.
 */
export async function lockBuyersShared(q: Queryable, customerIds: number[]): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock_shared(7340033, id) FROM (SELECT DISTINCT unnest($1::int[]) AS id ORDER BY 1) buyers', [customerIds]);
}
