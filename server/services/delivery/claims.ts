import type { LiveEventOf } from '../../../src/api/events/contract';
import type { Queryable } from '../../db/connection';
import { lockBuyersShared } from '../sales/buyers';
import type { Person } from '../sales/person';
import type { ParisClock, WindowSpan } from './paris-time';

/** A sale a batch decided, in the batch's order: which rule (and customer) at what price, of which lead and person. */
export interface BatchSale {
  lead: number;
  rule_id: number;
  customer_id: number;
  price_cents: number;
  person: Person;
  /** Its rule's last delivery once it is made: the batch's sales a millisecond apart, in order. */
  stamp: Date;
}

/**
 * A claim that filled what it counts: a rule's window or day reached its cap with this batch's
 * sales, or a customer's month reached its budget (another sale at the price it just paid would
 * pass it). The alerts are raised on these.
 */
export type Filled = { rule_id: number; span: WindowSpan | 'day' } | { customer_id: number };

/** A claim lost to another transaction since the batch read its counters: the batch is rolled back and decided again. */
export class ClaimLost extends Error {
  constructor(what: string) {
    super(`claim lost: ${what}`);
  }
}

/**
 * The (lead, customer) pairs whose customer bought the lead's person within its dedupe window
 * ('24 hours' each: days as the clock runs, DST or not), for many pairs at once.
 */
export const boughtWithinSql = `
  SELECT DISTINCT k.lead_id, k.customer_id
    FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[]) AS k (lead_id, customer_id, phone, email)
    JOIN customers c ON c.id = k.customer_id
   WHERE c.dedupe_days > 0
     AND EXISTS (SELECT 1 FROM lead_sales s
                  WHERE s.customer_id = k.customer_id AND (s.phone = k.phone OR s.email = k.email)
                    AND s.sold_at > $5::timestamptz - c.dedupe_days * interval '24 hours')`;

export const boughtWithinParams = (pairs: Array<{ lead: number; customer_id: number; person: Person }>, now: Date) => [
  pairs.map((p) => p.lead),
  pairs.map((p) => p.customer_id),
  pairs.map((p) => p.person.phone),
  pairs.map((p) => p.person.email),
  now,
];

/**
 * The hour, week and month counters of the batch's rules, each bumped by its sales unless that
 * passes its cap (read again from the rule: an admin may have lowered it since). The conditional
 * upsert makes concurrent batches queue on each counter row and re-check it, so no cap is ever passed.
 */
const windowsSql = `
  INSERT INTO rule_windows AS w (rule_id, span, start, count, cap)
  SELECT v.rule_id, v.span, v.start, v.n, v.cap FROM (
    SELECT r.id AS rule_id, s.span, s.start::timestamp AS start, b.n,
           CASE s.span WHEN 'hour' THEN r.cap_hour WHEN 'week' THEN r.cap_week ELSE r.cap_month END AS cap
      FROM unnest($1::int[], $2::int[]) AS b (rule_id, n) JOIN rules r ON r.id = b.rule_id,
           (VALUES ('hour', $3::text), ('week', $4::text), ('month', $5::text)) AS s (span, start)) v
   WHERE v.cap IS NULL OR v.n <= v.cap
   ORDER BY v.rule_id, v.span
  ON CONFLICT (rule_id, span, start) DO UPDATE SET count = w.count + EXCLUDED.count, cap = EXCLUDED.cap
   WHERE EXCLUDED.cap IS NULL OR w.count + EXCLUDED.count <= EXCLUDED.cap
  RETURNING w.rule_id, w.span, w.count, w.cap`;

/**
 * The same for the day: the report row is the day's counter (UNIQUE (rule_id, date)). Its last
 * delivery is the stamp of the rule's last sale in the batch, so that the next batch's choice
 * between equally filled rules reads the order the sales were made in.
 */
const reportsSql = `
  INSERT INTO reports AS rep (rule_id, date, leads_number, count, zip, last_delivery_at)
  SELECT r.id, $3::date, r.leads_number, b.n, r.zip, b.stamp
    FROM unnest($1::int[], $2::int[], $4::timestamptz[]) AS b (rule_id, n, stamp) JOIN rules r ON r.id = b.rule_id
   WHERE b.n <= r.leads_number
   ORDER BY r.id
  ON CONFLICT (rule_id, date) DO UPDATE
     SET count = rep.count + EXCLUDED.count, leads_number = EXCLUDED.leads_number, zip = EXCLUDED.zip, last_delivery_at = EXCLUDED.last_delivery_at
   WHERE rep.count + EXCLUDED.count <= EXCLUDED.leads_number
  RETURNING rep.rule_id, rep.id, rep.count, rep.leads_number`;

/**
 * The customers' months (Paris calendar), each bumped by its sales and their prices unless its
 * sales minus credits would pass its budget (read again here; null: no limit, still counted). A
 * month's first row is checked on insert; an existing one (credits may leave room) by the update.
 */
const monthsSql = `
  INSERT INTO customer_months AS m (customer_id, month, sales, sold_cents)
  SELECT c.id, $4::date, b.n, b.cents
    FROM unnest($1::int[], $2::int[], $3::bigint[]) AS b (customer_id, n, cents) JOIN customers c ON c.id = b.customer_id
   WHERE c.monthly_budget_cents IS NULL OR b.cents <= c.monthly_budget_cents
      OR EXISTS (SELECT 1 FROM customer_months e WHERE e.customer_id = c.id AND e.month = $4::date)
   ORDER BY c.id
  ON CONFLICT (customer_id, month) DO UPDATE SET sales = m.sales + EXCLUDED.sales, sold_cents = m.sold_cents + EXCLUDED.sold_cents
   WHERE (SELECT c.monthly_budget_cents IS NULL OR m.sold_cents - m.credits_cents + EXCLUDED.sold_cents <= c.monthly_budget_cents
            FROM customers c WHERE c.id = m.customer_id)
  RETURNING m.customer_id, (m.sold_cents - m.credits_cents)::float8 AS spent,
            (SELECT c.monthly_budget_cents::float8 FROM customers c WHERE c.id = m.customer_id) AS budget`;

/** Counts per key, in the order keys first appear. */
function tally<K>(keys: K[], weight: (i: number) => number = () => 1): Map<K, number> {
  const totals = new Map<K, number>();
  keys.forEach((k, i) => totals.set(k, (totals.get(k) ?? 0) + weight(i)));
  return totals;
}

/**
 * Claims a batch's sales in one transaction, set-based: the customers' shared locks (an export to
 * one waits) and the persons' locks (one transaction at a time sells a person to a customer; the
 * first commits its lead_sales row, the next sees it), the dedupe checked again under them, then
 * the rules' hour, week, month and day counters and the customers' months. Any claim another
 * transaction took first throws ClaimLost (the caller rolls back and decides again from fresh
 * counters). Answers each rule's report id and what the claims filled.
 */
export async function claimSales(
  q: Queryable,
  sales: BatchSale[],
  clock: ParisClock,
  now: Date,
): Promise<{ reports: Map<number, number>; filled: Filled[]; fills: Array<LiveEventOf<'rule.fill'>['data']> }> {
  const withPerson = sales.filter((s) => s.person.phone || s.person.email);
  if (withPerson.length > 0) {
    await lockBuyersShared(
      q,
      withPerson.map((s) => s.customer_id),
    );
    const keys = withPerson.flatMap((s) =>
      [s.person.phone && `person:${s.customer_id}:p:${s.person.phone}`, s.person.email && `person:${s.customer_id}:e:${s.person.email}`].filter(
        (k): k is string => !!k,
      ),
    );
    await q.query('SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM (SELECT DISTINCT unnest($1::text[]) AS k ORDER BY 1) keys', [keys]);
    const bought = await q.query(
      boughtWithinSql,
      boughtWithinParams(
        withPerson.map((s) => ({ lead: s.lead, customer_id: s.customer_id, person: s.person })),
        now,
      ),
    );
    if (bought.rows.length > 0) throw new ClaimLost('a person sold meanwhile');
  }

  const perRule = tally(sales.map((s) => s.rule_id));
  const rules = [...perRule.keys()];
  const counts = rules.map((r) => perRule.get(r)!);
  const filled: Filled[] = [];

  const { windows } = clock;
  const bumped = await q.query<{ rule_id: number; span: WindowSpan; count: number; cap: number | null }>(windowsSql, [
    rules,
    counts,
    windows.hour,
    windows.week,
    windows.month,
  ]);
  if (bumped.rows.length !== 3 * rules.length) throw new ClaimLost('a window');
  for (const w of bumped.rows) if (w.cap !== null && w.count >= w.cap) filled.push({ rule_id: w.rule_id, span: w.span });

  const stamps = new Map(sales.map((s) => [s.rule_id, s.stamp]));
  const days = await q.query<{ rule_id: number; id: number; count: number; leads_number: number }>(reportsSql, [
    rules,
    counts,
    clock.day,
    rules.map((r) => stamps.get(r)!),
  ]);
  if (days.rows.length !== rules.length) throw new ClaimLost('a day');
  for (const d of days.rows) if (d.count >= d.leads_number) filled.push({ rule_id: d.rule_id, span: 'day' });

  const perCustomer = tally(sales.map((s) => s.customer_id));
  const cents = tally(
    sales.map((s) => s.customer_id),
    (i) => sales[i].price_cents,
  );
  const customers = [...perCustomer.keys()];
  const months = await q.query<{ customer_id: number; spent: number; budget: number | null }>(monthsSql, [
    customers,
    customers.map((c) => perCustomer.get(c)!),
    customers.map((c) => cents.get(c)!),
    clock.windows.month.slice(0, 10),
  ]);
  if (months.rows.length !== customers.length) throw new ClaimLost('a budget');
  const lastPrice = new Map(sales.map((s) => [s.customer_id, s.price_cents]));
  for (const m of months.rows)
    if (m.budget !== null && (m.spent + lastPrice.get(m.customer_id)! > m.budget || m.spent >= m.budget)) filled.push({ customer_id: m.customer_id });

  // Each rule's counters after the batch, for the `rule.fill` events of the routing.
  const customerOf = new Map(sales.map((s) => [s.rule_id, s.customer_id]));
  const fills = days.rows.map((d) => {
    const sold = (span: WindowSpan) => bumped.rows.find((w) => w.rule_id === d.rule_id && w.span === span)!.count;
    return {
      rule_id: d.rule_id,
      customer_id: customerOf.get(d.rule_id)!,
      today: { count: d.count, leads_number: d.leads_number },
      sold: { hour: sold('hour'), week: sold('week'), month: sold('month') },
    };
  });
  return { reports: new Map(days.rows.map((d) => [d.rule_id, d.id])), filled, fills };
}
